/**
 * Every setting of a pull zone, grouped as the specification groups them (the update body's
 * `x-groups` in the API's document), each group saved on its own with only what changed.
 */
import { api } from '../api';
import { SchemaForm } from '../form';
import { bodySchema, fieldsOf, type Field } from '../schema';
import { Loading, useLoad } from '../ui';
import type { PullZone } from './pull-zones';

interface Group {
  name: string;
  fields: Field[];
}

async function settingGroups(): Promise<Group[]> {
  const schema = await bodySchema('post', '/pullzone/{id}');
  const fields = fieldsOf(schema);
  const grouped = new Set<string>();
  const groups: Group[] = Object.entries(schema['x-groups'] ?? {}).map(([name, names]) => {
    for (const n of names) grouped.add(n);
    return { name, fields: fields.filter((field) => names.includes(field.name)) };
  });
  const rest = fields.filter((field) => !grouped.has(field.name));
  if (rest.length > 0) groups.push({ name: 'Other', fields: rest });
  return groups.filter((group) => group.fields.length > 0);
}

export function PullZoneSettings({ zone, reload }: { zone: PullZone; reload: () => void }) {
  const groups = useLoad(settingGroups, []);
  return (
    <Loading loaded={groups}>
      {(list) => (
        <div class="groups">
          {list.map((group, at) => (
            <details key={group.name} open={at === 0}>
              <summary>
                {group.name} <span class="hint">({group.fields.length} settings)</span>
              </summary>
              <SchemaForm
                id={`settings-${group.name.replace(/\W+/g, '-')}`}
                fields={group.fields}
                initial={zone}
                submitLabel={`Save ${group.name} settings`}
                onSubmit={async (body) => {
                  await api.post(`/pullzone/${zone.Id}`, body);
                  reload();
                }}
              />
            </details>
          ))}
        </div>
      )}
    </Loading>
  );
}
