/** DNS zones: the account's list, and a new zone by its domain. */
import { api } from '../api';
import { OperationForm } from '../operation-form';
import { go } from '../router';
import { LoadedTable } from '../table';
import { PageTitle } from '../ui';

export interface DnsZone {
  Id: number;
  Domain: string;
  Records: { Id: number }[];
  DnsSecEnabled: boolean;
  [setting: string]: unknown;
}

export function DnsZones() {
  return (
    <>
      <PageTitle>DNS zones</PageTitle>
      <LoadedTable
        load={() => api.get<{ Items: DnsZone[] }>('/dnszone?perPage=1000')}
        caption="DNS zones of the account"
        headers={['Domain', 'Records', 'DNSSEC']}
        keyOf={(zone) => zone.Id}
        empty="No DNS zone yet."
        cells={(zone) => [<a href={`#/dns/${zone.Id}`}>{zone.Domain}</a>, zone.Records.length, zone.DnsSecEnabled ? 'on' : 'off']}
      />
      <OperationForm
        heading="Add a DNS zone"
        operation="post /dnszone"
        pick={['Domain']}
        id="new-dns-zone"
        submitLabel="Add DNS zone"
        onSubmit={async (body) => go(`/dns/${(await api.post<DnsZone>('/dnszone', body)).Id}`)}
      />
    </>
  );
}
