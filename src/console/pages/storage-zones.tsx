/** Storage zones: the account's list, and a new zone made from the create body. */
import { api } from '../api';
import { OperationForm } from '../operation-form';
import { go } from '../router';
import { LoadedTable } from '../table';
import { formatBytes, PageTitle } from '../ui';

export interface StorageZone {
  Id: number;
  Name: string;
  Password: string;
  ReadOnlyPassword: string;
  Region: string;
  StorageUsed: number;
  FilesStored: number;
  StorageHostname: string | null;
  [setting: string]: unknown;
}

export function StorageZones() {
  return (
    <>
      <PageTitle>Storage zones</PageTitle>
      <LoadedTable
        load={() => api.get<StorageZone[]>('/storagezone?perPage=1000')}
        caption="Storage zones of the account"
        headers={['Name', 'Region', 'Files', 'Used']}
        keyOf={(zone) => zone.Id}
        empty="No storage zone yet."
        cells={(zone) => [<a href={`#/storage/${zone.Id}`}>{zone.Name}</a>, zone.Region, zone.FilesStored, formatBytes(zone.StorageUsed)]}
      />
      <OperationForm
        heading="Add a storage zone"
        operation="post /storagezone"
        id="new-storage-zone"
        submitLabel="Add storage zone"
        onSubmit={async (body) => go(`/storage/${(await api.post<StorageZone>('/storagezone', body)).Id}`)}
      />
    </>
  );
}
