/**
 * Container applications (the container API at /mc): the list, and a new application with its
 * first container (image, environment, ports); one application's page is container-app.tsx.
 * Every field is the schema's (the create body's), labelled and checked as the API checks.
 */
import { api } from '../api';
import { itemsOfRows, SchemaForm } from '../form';
import { go } from '../router';
import { bodySchema, type Field, fieldsOf, nestedFields, propertyOf } from '../schema';
import { LoadedTable } from '../table';
import { Loading, PageTitle, useLoad } from '../ui';
import { ContainerAppPage } from './container-app';
import { type ContainerForms, ContainerRows, containerForms, endpointsOfRows, pick, useContainerRows } from './container-template';

interface AppListItem {
  id: string;
  name: string;
  status: string;
}

function NewApp({ forms }: { forms: { app: Field[]; containers: ContainerForms } }) {
  const rows = useContainerRows(forms.containers);
  // The first container's fields are named by their place in the body, so the API's complaints about them land beside them.
  const containerFields = forms.containers.container.map((f) => ({
    ...f,
    name: `containerTemplates.${f.name}`,
    label: `Container ${f.label.charAt(0).toLowerCase()}${f.label.slice(1)}`,
  }));
  return (
    <SchemaForm
      id="new-app"
      fields={[...forms.app, ...containerFields]}
      submitLabel="Add container app"
      onSubmit={async (body) => {
        const container = {
          ...(body['containerTemplates'] as object),
          environmentVariables: itemsOfRows(forms.containers.variable, rows.variables),
          endpoints: endpointsOfRows(forms.containers.endpoint, rows.endpoints),
        };
        const sent = { regionSettings: {}, ...body, containerTemplates: [container] };
        go(`/containers/${(await api.post<{ id: string }>('/mc/apps', sent)).id}`);
      }}
    >
      <ContainerRows id="new-app" forms={forms.containers} rows={rows} />
    </SchemaForm>
  );
}

export function ContainerApps({ id }: { id?: string | undefined }) {
  const forms = useLoad(async () => {
    const schema = await bodySchema('post', '/mc/apps');
    return {
      app: [...pick(fieldsOf(schema), ['name', 'runtimeType']), ...nestedFields('autoScaling', await propertyOf(schema, 'autoScaling'))],
      containers: await containerForms(),
    };
  }, []);
  if (id !== undefined) return <ContainerAppPage id={id} />;
  return (
    <>
      <PageTitle>Container apps</PageTitle>
      <LoadedTable
        load={() => api.get<{ items: AppListItem[] }>('/mc/apps').then((page) => page.items)}
        caption="Container applications"
        headers={['Name', 'Id', 'Status']}
        keyOf={(app) => app.id}
        empty="No container application yet."
        cells={(app) => [<a href={`#/containers/${encodeURIComponent(app.id)}`}>{app.name}</a>, app.id, app.status]}
      />
      <h2>Add a container app</h2>
      <Loading loaded={forms}>{(f) => <NewApp forms={f} />}</Loading>
    </>
  );
}
