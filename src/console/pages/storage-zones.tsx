/** Storage zones: the account's list, and a new zone made from the create body. */
import { api, itemsOf } from '../api';
import { SchemaForm } from '../form';
import { go } from '../router';
import { bodyFields } from '../schema';
import { formatBytes, Loading, PageTitle, useLoad } from '../ui';

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
  const zones = useLoad(() => api.get<StorageZone[] | { Items: StorageZone[] }>('/storagezone?perPage=1000').then(itemsOf), []);
  const fields = useLoad(() => bodyFields('post', '/storagezone'), []);
  return (
    <>
      <PageTitle>Storage zones</PageTitle>
      <Loading loaded={zones}>
        {(list) =>
          list.length === 0 ? (
            <p>No storage zone yet.</p>
          ) : (
            <table>
              <caption>Storage zones of the account</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Region</th>
                  <th scope="col">Files</th>
                  <th scope="col">Used</th>
                </tr>
              </thead>
              <tbody>
                {list.map((zone) => (
                  <tr key={zone.Id}>
                    <td>
                      <a href={`#/storage/${zone.Id}`}>{zone.Name}</a>
                    </td>
                    <td>{zone.Region}</td>
                    <td>{zone.FilesStored}</td>
                    <td>{formatBytes(zone.StorageUsed)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loading>
      <h2>Add a storage zone</h2>
      <Loading loaded={fields}>
        {(list) => (
          <SchemaForm
            id="new-storage-zone"
            fields={list}
            submitLabel="Add storage zone"
            onSubmit={async (body) => {
              const zone = await api.post<StorageZone>('/storagezone', body);
              go(`/storage/${zone.Id}`);
            }}
          />
        )}
      </Loading>
    </>
  );
}
