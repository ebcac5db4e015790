/** Container applications: the account's list with their state (the container API at /mc needs a personal key). */
import { api } from '../api';
import { Loading, PageTitle, useLoad } from '../ui';

interface AppListItem {
  id: string;
  name: string;
  description: string | null;
  status: unknown;
}

export function ContainerApps() {
  const apps = useLoad(() => api.get<{ items: AppListItem[] }>('/mc/apps'), []);
  return (
    <>
      <PageTitle>Container apps</PageTitle>
      <Loading loaded={apps}>
        {(page) =>
          page.items.length === 0 ? (
            <p>No container application yet. They are created through the API (POST /mc/apps) or the platform's command-line client.</p>
          ) : (
            <table>
              <caption>Container applications</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Id</th>
                  <th scope="col">Description</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((app) => (
                  <tr key={app.id}>
                    <td>{app.name}</td>
                    <td>{app.id}</td>
                    <td>{app.description}</td>
                    <td>{typeof app.status === 'string' ? app.status : JSON.stringify(app.status)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loading>
    </>
  );
}
