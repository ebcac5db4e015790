/** DNS zones: the account's list, and a new zone by its domain. */
import { api, itemsOf } from '../api';
import { SchemaForm } from '../form';
import { go } from '../router';
import { bodyFields } from '../schema';
import { Loading, PageTitle, useLoad } from '../ui';

export interface DnsZone {
  Id: number;
  Domain: string;
  Records: { Id: number }[];
  DnsSecEnabled: boolean;
  [setting: string]: unknown;
}

export function DnsZones() {
  const zones = useLoad(() => api.get<DnsZone[] | { Items: DnsZone[] }>('/dnszone?perPage=1000').then(itemsOf), []);
  const fields = useLoad(() => bodyFields('post', '/dnszone', ['Domain']), []);
  return (
    <>
      <PageTitle>DNS zones</PageTitle>
      <Loading loaded={zones}>
        {(list) =>
          list.length === 0 ? (
            <p>No DNS zone yet.</p>
          ) : (
            <table>
              <caption>DNS zones of the account</caption>
              <thead>
                <tr>
                  <th scope="col">Domain</th>
                  <th scope="col">Records</th>
                  <th scope="col">DNSSEC</th>
                </tr>
              </thead>
              <tbody>
                {list.map((zone) => (
                  <tr key={zone.Id}>
                    <td>
                      <a href={`#/dns/${zone.Id}`}>{zone.Domain}</a>
                    </td>
                    <td>{zone.Records.length}</td>
                    <td>{zone.DnsSecEnabled ? 'on' : 'off'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loading>
      <h2>Add a DNS zone</h2>
      <Loading loaded={fields}>
        {(list) => (
          <SchemaForm
            id="new-dns-zone"
            fields={list}
            submitLabel="Add DNS zone"
            onSubmit={async (body) => {
              const zone = await api.post<DnsZone>('/dnszone', body);
              go(`/dns/${zone.Id}`);
            }}
          />
        )}
      </Loading>
    </>
  );
}
