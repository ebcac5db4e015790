/** API keys: the account's keys with their roles, a new key (read-only or full), a key revoked. */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { SchemaForm } from '../form';
import { fieldOf, model } from '../schema';
import { LoadedTable } from '../table';
import { ActionButton, Loading, PageTitle, useLoad } from '../ui';

interface ApiKey {
  Id: number;
  Key: string;
  Roles: string[];
}

export function ApiKeys() {
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((n) => n + 1);
  // The create body's Roles is a list of enum values: offered here as one choice of a role.
  const role = useLoad(async () => {
    const roles = (await model('ApiKeyCreateRequest')).properties?.['Roles'];
    return fieldOf('Role', { ...roles?.items, description: roles?.description ?? '' }, true);
  }, []);
  return (
    <>
      <PageTitle>API keys</PageTitle>
      <LoadedTable
        load={() => api.get<ApiKey[]>('/apikey?perPage=1000')}
        version={version}
        caption="Keys of the account"
        headers={['Id', 'Key', 'Roles', 'Actions']}
        keyOf={(k) => k.Id}
        cells={(k) => [
          k.Id,
          <code>{k.Key}</code>,
          k.Roles.join(', '),
          <ActionButton
            label={`Revoke key ${k.Id}`}
            confirmText="Requests made with this key will be refused. Revoke it?"
            run={async () => {
              await api.del(`/apikey/${k.Id}`);
              changed();
            }}
          />,
        ]}
      />
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
              changed();
            }}
          />
        )}
      </Loading>
    </>
  );
}
