/** A pull zone's hostnames: added and removed, HTTPS forced, certificates (a free one, or the user's own). */
import { api } from '../api';
import { SchemaForm } from '../form';
import { bodyFields } from '../schema';
import { ActionButton, Loading, useLoad } from '../ui';
import type { PullZone } from './pull-zones';

export function PullZoneHostnames({ zone, reload }: { zone: PullZone; reload: () => void }) {
  const forms = useLoad(
    async () => ({
      add: await bodyFields('post', '/pullzone/{id}/addHostname'),
      certificate: await bodyFields('post', '/pullzone/{id}/addCertificate'),
    }),
    [],
  );
  const hostnames = zone.Hostnames ?? [];
  return (
    <>
      <table>
        <caption>Hostnames of the zone</caption>
        <thead>
          <tr>
            <th scope="col">Hostname</th>
            <th scope="col">Certificate</th>
            <th scope="col">Force HTTPS</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {hostnames.map((h) => (
            <tr key={h.Id}>
              <td>
                {h.Value}
                {h.IsSystemHostname ? ' (system)' : ''}
              </td>
              <td>{h.HasCertificate ? 'yes' : 'no'}</td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Force HTTPS on ${h.Value}`}
                  checked={h.ForceSSL}
                  onChange={async (e) => {
                    await api.post(`/pullzone/${zone.Id}/setForceSSL`, { Hostname: h.Value, ForceSSL: e.currentTarget.checked });
                    reload();
                  }}
                />
              </td>
              <td>
                {h.IsSystemHostname ? null : (
                  <>
                    <ActionButton
                      label={`Get a free certificate for ${h.Value}`}
                      run={async () => {
                        await api.get(`/pullzone/loadFreeCertificate?hostname=${encodeURIComponent(h.Value)}`);
                        reload();
                      }}
                    />{' '}
                    <ActionButton
                      label={`Remove ${h.Value}`}
                      confirmText={`Remove the hostname ${h.Value}?`}
                      run={async () => {
                        await api.del(`/pullzone/${zone.Id}/removeHostname`, { Hostname: h.Value });
                        reload();
                      }}
                    />
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Loading loaded={forms}>
        {(f) => (
          <>
            <h2>Add a hostname</h2>
            <SchemaForm
              id="add-hostname"
              fields={f.add}
              submitLabel="Add hostname"
              done="Hostname added."
              onSubmit={async (body) => {
                await api.post(`/pullzone/${zone.Id}/addHostname`, body);
                reload();
              }}
            />
            <h2>Add your own certificate</h2>
            <SchemaForm
              id="add-certificate"
              fields={f.certificate}
              submitLabel="Add certificate"
              done="Certificate added."
              onSubmit={async (body) => {
                await api.post(`/pullzone/${zone.Id}/addCertificate`, body);
                reload();
              }}
            />
          </>
        )}
      </Loading>
    </>
  );
}
