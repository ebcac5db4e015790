/** Pull zones: the account's list, and a new zone made from the create body's main fields. */
import { api, itemsOf } from '../api';
import { SchemaForm } from '../form';
import { go } from '../router';
import { bodyFields } from '../schema';
import { Loading, PageTitle, useLoad } from '../ui';

export interface Hostname {
  Id: number;
  Value: string;
  ForceSSL: boolean;
  IsSystemHostname: boolean;
  HasCertificate: boolean;
}

export interface PullZone {
  Id: number;
  Name: string;
  OriginUrl: string | null;
  Enabled: boolean;
  Hostnames: Hostname[] | null;
  [setting: string]: unknown;
}

export function PullZones() {
  const zones = useLoad(() => api.get<PullZone[] | { Items: PullZone[] }>('/pullzone?perPage=1000').then(itemsOf), []);
  const fields = useLoad(() => bodyFields('post', '/pullzone', ['Name', 'OriginUrl', 'Type']), []);
  return (
    <>
      <PageTitle>Pull zones</PageTitle>
      <Loading loaded={zones}>
        {(list) =>
          list.length === 0 ? (
            <p>No pull zone yet.</p>
          ) : (
            <table>
              <caption>Pull zones of the account</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Id</th>
                  <th scope="col">Hostnames</th>
                  <th scope="col">Origin</th>
                  <th scope="col">Enabled</th>
                </tr>
              </thead>
              <tbody>
                {list.map((zone) => (
                  <tr key={zone.Id}>
                    <td>
                      <a href={`#/pullzones/${zone.Id}`}>{zone.Name}</a>
                    </td>
                    <td>{zone.Id}</td>
                    <td>{(zone.Hostnames ?? []).map((h) => h.Value).join(', ')}</td>
                    <td>{zone.OriginUrl}</td>
                    <td>{zone.Enabled ? 'yes' : 'no'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loading>
      <h2>Add a pull zone</h2>
      <Loading loaded={fields}>
        {(list) => (
          <SchemaForm
            id="new-pull-zone"
            fields={list}
            submitLabel="Add pull zone"
            onSubmit={async (body) => {
              const zone = await api.post<PullZone>('/pullzone', body);
              go(`/pullzones/${zone.Id}`);
            }}
          />
        )}
      </Loading>
    </>
  );
}
