/** A pull zone's hostnames: added and removed, HTTPS forced, certificates (a free one, or the user's own). */
import { api } from '../api';
import { OperationForm } from '../operation-form';
import { Table } from '../table';
import { ActionButton } from '../ui';
import type { Hostname, PullZone } from './pull-zones';

/** The operations of a zone's hostnames that take a body: their heading, button and answer. */
const FORMS = [
  { operation: 'addHostname', heading: 'Add a hostname', submitLabel: 'Add hostname', done: 'Hostname added.' },
  { operation: 'addCertificate', heading: 'Add your own certificate', submitLabel: 'Add certificate', done: 'Certificate added.' },
];

function Actions({ zone, hostname, reload }: { zone: PullZone; hostname: Hostname; reload: () => void }) {
  if (hostname.IsSystemHostname) return null;
  const then = (action: () => Promise<unknown>) => async () => {
    await action();
    reload();
  };
  return (
    <>
      <ActionButton
        label={`Get a free certificate for ${hostname.Value}`}
        run={then(() => api.get(`/pullzone/loadFreeCertificate?hostname=${encodeURIComponent(hostname.Value)}`))}
      />{' '}
      <ActionButton
        label={`Remove ${hostname.Value}`}
        confirmText={`Remove the hostname ${hostname.Value}?`}
        run={then(() => api.del(`/pullzone/${zone.Id}/removeHostname`, { Hostname: hostname.Value }))}
      />
    </>
  );
}

export function PullZoneHostnames({ zone, reload }: { zone: PullZone; reload: () => void }) {
  return (
    <>
      <Table
        caption="Hostnames of the zone"
        headers={['Hostname', 'Certificate', 'Force HTTPS', 'Actions']}
        items={zone.Hostnames ?? []}
        keyOf={(h) => h.Id}
        cells={(h) => [
          `${h.Value}${h.IsSystemHostname ? ' (system)' : ''}`,
          h.HasCertificate ? 'yes' : 'no',
          <input
            type="checkbox"
            aria-label={`Force HTTPS on ${h.Value}`}
            checked={h.ForceSSL}
            onChange={async (e) => {
              await api.post(`/pullzone/${zone.Id}/setForceSSL`, { Hostname: h.Value, ForceSSL: e.currentTarget.checked });
              reload();
            }}
          />,
          <Actions zone={zone} hostname={h} reload={reload} />,
        ]}
      />
      {FORMS.map((form) => (
        <OperationForm
          key={form.operation}
          {...form}
          operation={`post /pullzone/{id}/${form.operation}`}
          id={form.operation}
          onSubmit={async (body) => {
            await api.post(`/pullzone/${zone.Id}/${form.operation}`, body);
            reload();
          }}
        />
      ))}
    </>
  );
}
