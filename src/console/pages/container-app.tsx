/**
 * One container application: its settings, its scale (the autoscaling bounds), each container's
 * image, environment and endpoints, containers added and deleted, and the application deleted.
 */
import { api } from '../api';
import { itemsOfRows, SchemaForm } from '../form';
import { go } from '../router';
import { bodySchema, fieldsOf } from '../schema';
import { ActionButton, Loading, ResourceHead, Totals, useLoad } from '../ui';
import {
  type Application,
  ContainerRows,
  type ContainerForms,
  containerForms,
  endpointAsSent,
  endpointsOfRows,
  pick,
  type Template,
  useContainerRows,
} from './container-template';

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

export function ContainerAppPage({ id }: { id: string }) {
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
