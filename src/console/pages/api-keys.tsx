/** API keys: the account's keys with their roles, a new key (read-only or full), a key revoked. */
import { api, itemsOf } from '../api';
import { SchemaForm } from '../form';
import { fieldOf, model } from '../schema';
import { ActionButton, Loading, PageTitle, useLoad } from '../ui';

interface ApiKey {
  Id: number;
  Key: string;
  Roles: string[];
}

export function ApiKeys() {
  const keys = useLoad(() => api.get<ApiKey[] | { Items: ApiKey[] }>('/apikey?perPage=1000').then(itemsOf), []);
  // The create body's Roles is a list of enum values: offered here as one choice of a role.
  const role = useLoad(async () => {
    const roles = (await model('ApiKeyCreateRequest')).properties?.['Roles'];
    return fieldOf('Role', { ...roles?.items, description: roles?.description ?? '' }, true);
  }, []);
  return (
    <>
      <PageTitle>API keys</PageTitle>
      <Loading loaded={keys}>
        {(list) => (
          <table>
            <caption>Keys of the account</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Key</th>
                <th scope="col">Roles</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((k) => (
                <tr key={k.Id}>
                  <td>{k.Id}</td>
                  <td>
                    <code>{k.Key}</code>
                  </td>
                  <td>{k.Roles.join(', ')}</td>
                  <td>
                    <ActionButton
                      label={`Revoke key ${k.Id}`}
                      confirmText="Requests made with this key will be refused. Revoke it?"
                      run={async () => {
                        await api.del(`/apikey/${k.Id}`);
                        keys.reload();
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loading>
      <h2>Create a key</h2>
      <Loading loaded={role}>
        {(field) => (
          <SchemaForm
            id="new-key"
            fields={[field]}
            initial={{ Role: 'ReadOnly' }}
            submitLabel="Create key"
            done="Key created."
            onSubmit={async (body) => {
              await api.post('/apikey', { Roles: [body['Role'] ?? 'ReadOnly'] });
              keys.reload();
            }}
          />
        )}
      </Loading>
    </>
  );
}
