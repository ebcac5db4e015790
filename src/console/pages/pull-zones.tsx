/** Pull zones: the account's list, and a new zone made from the create body's main fields. */
import { api } from '../api';
import { OperationForm } from '../operation-form';
import { go } from '../router';
import { LoadedTable } from '../table';
import { PageTitle } from '../ui';

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
  return (
    <>
      <PageTitle>Pull zones</PageTitle>
      <LoadedTable
        load={() => api.get<PullZone[]>('/pullzone?perPage=1000')}
        caption="Pull zones of the account"
        headers={['Name', 'Id', 'Hostnames', 'Origin', 'Enabled']}
        keyOf={(zone) => zone.Id}
        empty="No pull zone yet."
        cells={(zone) => [
          <a href={`#/pullzones/${zone.Id}`}>{zone.Name}</a>,
          zone.Id,
          (zone.Hostnames ?? []).map((h) => h.Value).join(', '),
          zone.OriginUrl,
          zone.Enabled ? 'yes' : 'no',
        ]}
      />
      <OperationForm
        heading="Add a pull zone"
        operation="post /pullzone"
        pick={['Name', 'OriginUrl', 'Type']}
        id="new-pull-zone"
        submitLabel="Add pull zone"
        onSubmit={async (body) => go(`/pullzones/${(await api.post<PullZone>('/pullzone', body)).Id}`)}
      />
    </>
  );
}
