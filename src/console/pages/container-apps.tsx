/** Container applications: the account's list with their state (the container API at /mc needs a personal key). */
import { api } from '../api';
import { LoadedTable } from '../table';
import { PageTitle } from '../ui';

interface AppListItem {
  id: string;
  name: string;
  description: string | null;
  status: unknown;
}

export function ContainerApps() {
  return (
    <>
      <PageTitle>Container apps</PageTitle>
      <LoadedTable
        load={() => api.get<{ items: AppListItem[] }>('/mc/apps').then((page) => page.items)}
        caption="Container applications"
        headers={['Name', 'Id', 'Description', 'Status']}
        keyOf={(app) => app.id}
        empty="No container application yet. They are created through the API (POST /mc/apps) or the platform's command-line client."
        cells={(app) => [app.name, app.id, app.description, typeof app.status === 'string' ? app.status : JSON.stringify(app.status)]}
      />
    </>
  );
}
