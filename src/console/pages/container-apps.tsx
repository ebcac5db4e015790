/**
 * Container applications (the container API at /mc): the list, a new application with its first
 * container (image, environment, ports), and one application's page: its settings, its scale,
 * each container's image, environment and endpoints, and its deletion. Every field is the
 * schema's (the create, patch and autoscaling bodies), labelled and checked as the API checks.
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { itemsOfRows, type Raw, RowsEditor, rowsOf, SchemaForm } from '../form';
import { go } from '../router';
import { bodySchema, type Field, fieldsOf, nestedFields, propertyOf } from '../schema';
import { LoadedTable } from '../table';
import { ActionButton, Loading, PageTitle, ResourceHead, Totals, useLoad } from '../ui';

interface AppListItem {
  id: string;
  name: string;
  status: string;
}

interface PortMapping {
  containerPort: number;
  exposedPort: number | null;
  protocols?: string[];
}

interface Endpoint {
  displayName: string;
  type: string;
  isSslEnabled: boolean;
  portMappings: PortMapping[];
}

interface Template {
  id: string;
  name: string;
  image: string;
  environmentVariables: { name: string; value?: string }[];
  endpoints: Endpoint[];
  [field: string]: unknown;
}

interface Application {
  id: string;
  name: string;
  status: string;
  runtimeType: string;
  autoScaling: { min: number; max: number };
  containerTemplates: Template[];
  [field: string]: unknown;
}

/** The fields of a container shown in its forms, in this order. */
const CONTAINER_FIELDS = ['name', 'imageNamespace', 'imageName', 'imageTag', 'imageRegistryId', 'imagePullPolicy'];

const pick = (fields: Field[], names: string[]) => names.map((name) => fields.find((f) => f.name === name)).filter((f): f is Field => f !== undefined);

interface ContainerForms {
  container: Field[];
  variable: Field[];
  /** A delivery-network endpoint with one port: its name, HTTPS, and the port mapping (`port.*`). */
  endpoint: Field[];
}

/** A container body's forms: from the container request schema (POST /mc/apps/{appId}/containers). */
async function containerForms(): Promise<ContainerForms> {
  const schema = await bodySchema('post', '/mc/apps/{appId}/containers');
  const endpoint = await propertyOf(schema, 'endpoints');
  const cdn = await propertyOf(endpoint, 'cdn');
  const port = await propertyOf(cdn, 'portMappings');
  return {
    container: pick(fieldsOf(schema), CONTAINER_FIELDS),
    variable: fieldsOf(await propertyOf(schema, 'environmentVariables')),
    endpoint: [
      ...pick(fieldsOf(endpoint), ['displayName']),
      ...pick(nestedFields('cdn', cdn, false), ['cdn.isSslEnabled']),
      ...pick(nestedFields('port', port), ['port.containerPort', 'port.exposedPort']),
    ],
  };
}

/** Endpoint rows as the API takes them: a delivery-network endpoint forwarding its one port. */
const endpointsOfRows = (fields: Field[], rows: Record<string, Raw>[]) =>
  itemsOfRows(fields, rows).map(({ port, ...endpoint }) => ({
    ...endpoint,
    cdn: { ...((endpoint['cdn'] as object | undefined) ?? {}), portMappings: [port] },
  }));

/** An endpoint as returned, as rows show it (delivery-network ones) or as the API takes it back unchanged (the rest). */
const endpointRow = (e: Endpoint) => ({ displayName: e.displayName, cdn: { isSslEnabled: e.isSslEnabled }, port: e.portMappings[0] ?? {} });
const endpointAsSent = (e: Endpoint) => ({
  displayName: e.displayName,
  anycast: { type: 'iPv4', portMappings: e.portMappings.map(({ containerPort, exposedPort, protocols }) => ({ containerPort, exposedPort, protocols })) },
});

/** The rows of a container's variables and endpoints, shown inside its form. */
function useContainerRows(forms: ContainerForms, template?: Template) {
  const [variables, setVariables] = useState<Record<string, Raw>[] | undefined>(undefined);
  const [endpoints, setEndpoints] = useState<Record<string, Raw>[] | undefined>(undefined);
  const cdn = (template?.endpoints ?? []).filter((e) => e.type === 'cdn');
  return {
    variables: variables ?? rowsOf(forms.variable, template?.environmentVariables),
    endpoints: endpoints ?? rowsOf(forms.endpoint, cdn.map(endpointRow)),
    changed: { variables: variables !== undefined, endpoints: endpoints !== undefined },
    setVariables,
    setEndpoints,
  };
}

function ContainerRows({ id, forms, rows }: { id: string; forms: ContainerForms; rows: ReturnType<typeof useContainerRows> }) {
  return (
    <>
      <RowsEditor id={id} legend="Environment variables" noun="variable" fields={forms.variable} rows={rows.variables} setRows={rows.setVariables} />
      <RowsEditor
        id={id}
        legend="Endpoints (through the delivery network)"
        noun="endpoint"
        fields={forms.endpoint}
        rows={rows.endpoints}
        setRows={rows.setEndpoints}
      />
    </>
  );
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

function ContainerForm({ app, template, forms, saved }: { app: Application; template: Template; forms: ContainerForms; saved: () => void }) {
  const rows = useContainerRows(forms, template);
  const id = `container-${template.id}`;
  return (
    <SchemaForm
      id={id}
      legend={`Container ${template.name}`}
      fields={forms.container}
      initial={template}
      submitLabel={`Save container ${template.name}`}
      done="Container saved."
      onSubmit={async (body) => {
        if (rows.changed.variables) body['environmentVariables'] = itemsOfRows(forms.variable, rows.variables);
        if (rows.changed.endpoints)
          body['endpoints'] = [...endpointsOfRows(forms.endpoint, rows.endpoints), ...template.endpoints.filter((e) => e.type !== 'cdn').map(endpointAsSent)];
        await api.patch(`/mc/apps/${app.id}/containers/${template.id}`, body);
        saved();
      }}
    >
      <ContainerRows id={id} forms={forms} rows={rows} />
    </SchemaForm>
  );
}

/** Another container for an application (POST /mc/apps/{appId}/containers). */
function NewContainer({ app, forms, added }: { app: Application; forms: ContainerForms; added: () => void }) {
  const rows = useContainerRows(forms);
  return (
    <SchemaForm
      id="new-container"
      legend="Add a container"
      fields={forms.container}
      submitLabel="Add container"
      done="Container added."
      onSubmit={async (body) => {
        body['environmentVariables'] = itemsOfRows(forms.variable, rows.variables);
        body['endpoints'] = endpointsOfRows(forms.endpoint, rows.endpoints);
        await api.post(`/mc/apps/${app.id}/containers`, body);
        added();
      }}
    >
      <ContainerRows id="new-container" forms={forms} rows={rows} />
    </SchemaForm>
  );
}

function AppPage({ id }: { id: string }) {
  const app = useLoad(() => api.get<Application>(`/mc/apps/${encodeURIComponent(id)}`), [id]);
  const forms = useLoad(
    async () => ({
      settings: pick(fieldsOf(await bodySchema('patch', '/mc/apps/{appId}')), ['name', 'runtimeType']),
      scale: fieldsOf(await bodySchema('put', '/mc/apps/{appId}/autoscaling')),
      containers: await containerForms(),
    }),
    [],
  );
  return (
    <Loading loaded={app}>
      {(a) => (
        <>
          <ResourceHead list="/containers" listLabel="Container apps" title={`Container app ${a.name}`} />
          <Totals
            figures={[
              ['Status', a.status, 'app-status'],
              ['Runtime', a.runtimeType],
              ['Instances', `${a.autoScaling.min} to ${a.autoScaling.max}`, 'app-instances'],
            ]}
          />
          <Loading loaded={forms}>
            {(f) => (
              <>
                <h2>Settings</h2>
                <SchemaForm
                  id="app-settings"
                  fields={f.settings}
                  initial={a}
                  submitLabel="Save settings"
                  onSubmit={(body) => api.patch(`/mc/apps/${a.id}`, body).then(app.reload)}
                />
                <h2>Scale</h2>
                <SchemaForm
                  id="app-scale"
                  fields={f.scale}
                  initial={a.autoScaling}
                  submitLabel="Save scale"
                  done="Scale saved."
                  // The body is the whole range: both bounds, changed or not.
                  onSubmit={(body) => api.put(`/mc/apps/${a.id}/autoscaling`, { ...a.autoScaling, ...body }).then(app.reload)}
                />
                <h2>Containers</h2>
                {a.containerTemplates.map((template) => (
                  <div key={template.id}>
                    <ContainerForm app={a} template={template} forms={f.containers} saved={app.reload} />
                    {a.containerTemplates.length > 1 ? (
                      <ActionButton
                        label={`Delete container ${template.name}`}
                        confirmText={`Delete the container ${template.name}?`}
                        run={async () => {
                          await api.del(`/mc/apps/${a.id}/containers/${template.id}`);
                          app.reload();
                        }}
                      />
                    ) : null}
                  </div>
                ))}
                <NewContainer key={a.containerTemplates.length} app={a} forms={f.containers} added={app.reload} />
              </>
            )}
          </Loading>
          <h2>Delete</h2>
          <ActionButton
            label={`Delete container app ${a.name}`}
            confirmText={`Delete the container app ${a.name} and its containers?`}
            run={async () => {
              await api.del(`/mc/apps/${a.id}`);
              go('/containers');
            }}
          />
        </>
      )}
    </Loading>
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
  if (id !== undefined) return <AppPage id={id} />;
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
