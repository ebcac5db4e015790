/**
 * A DNS zone's records in a table: added, edited and deleted, each record type with the fields
 * it uses (the fields themselves, their bounds and descriptions, come from the API's schema).
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { SchemaForm } from '../form';
import { bodyFields, type Field } from '../schema';
import { Table } from '../table';
import { ActionButton, Loading, useLoad } from '../ui';

export interface DnsRecord {
  Id: number;
  Type: number;
  Name: string;
  Value: string;
  Ttl: number;
  Priority: number;
  Weight: number;
  Port: number;
  Flags: number;
  Tag: string;
  Disabled: boolean;
  [field: string]: unknown;
}

/** What each record type uses beside its name, TTL and the switch that disables it. */
const FIELDS_BY_TYPE: Record<string, string[]> = {
  A: ['Value'],
  AAAA: ['Value'],
  CNAME: ['Value'],
  TXT: ['Value'],
  MX: ['Value', 'Priority'],
  Redirect: ['Value'],
  Flatten: ['Value'],
  PullZone: ['PullZoneId'],
  SRV: ['Value', 'Priority', 'Weight', 'Port'],
  CAA: ['Flags', 'Tag', 'Value'],
  PTR: ['Value'],
  Script: ['ScriptId'],
  NS: ['Value'],
  SVCB: ['Priority', 'Value'],
  HTTPS: ['Priority', 'Value'],
  TLSA: ['Value'],
};
const COMMON_BEFORE = ['Name'];
const COMMON_AFTER = ['Ttl', 'Disabled', 'Comment'];

function fieldsFor(all: Field[], typeName: string): Field[] {
  const names = [...COMMON_BEFORE, ...(FIELDS_BY_TYPE[typeName] ?? ['Value']), ...COMMON_AFTER];
  return names.map((name) => all.find((f) => f.name === name)).filter((f): f is Field => f !== undefined);
}

function RecordForm({ zoneId, all, typeField, record, done }: { zoneId: number; all: Field[]; typeField: Field; record?: DnsRecord; done: () => void }) {
  const [type, setType] = useState<number>(record?.Type ?? Number(typeField.choices[0]?.value ?? 0));
  const typeName = typeField.choices.find((c) => c.value === type)?.label ?? String(type);
  const id = record ? `record-${record.Id}` : 'new-record';
  return (
    <div class="record-form">
      {record ? null : (
        <div class="field">
          <label for={`${id}-Type`}>Type</label>
          <select id={`${id}-Type`} value={String(type)} onChange={(e) => setType(Number(e.currentTarget.value))} aria-describedby={`${id}-Type-help`}>
            {typeField.choices.map((c) => (
              <option key={String(c.value)} value={String(c.value)}>
                {c.label}
              </option>
            ))}
          </select>
          <p class="help" id={`${id}-Type-help`}>
            {typeField.description}
          </p>
        </div>
      )}
      <SchemaForm
        key={`${id}-${type}`}
        id={id}
        fields={fieldsFor(all, typeName)}
        initial={record}
        submitLabel={record ? `Save ${typeName} record` : `Add ${typeName} record`}
        done={record ? 'Record saved.' : 'Record added.'}
        onSubmit={async (body) => {
          if (record) await api.post(`/dnszone/${zoneId}/records/${record.Id}`, body);
          else await api.put(`/dnszone/${zoneId}/records`, { ...body, Type: type });
          done();
        }}
      />
    </div>
  );
}

export function DnsRecords({ zoneId, records, reload }: { zoneId: number; records: DnsRecord[]; reload: () => void }) {
  const schema = useLoad(async () => {
    const all = await bodyFields('put', '/dnszone/{zoneId}/records');
    return { all, typeField: all.find((f) => f.name === 'Type')! };
  }, []);
  const [editing, setEditing] = useState<number | undefined>(undefined);
  return (
    <Loading loaded={schema}>
      {({ all, typeField }) => {
        const typeName = (type: number) => typeField.choices.find((c) => c.value === type)?.label ?? String(type);
        return (
          <>
            <Table
              className="records"
              caption="Records of the zone"
              headers={['Name', 'Type', 'Value', 'TTL', 'Priority', 'Actions']}
              items={records}
              keyOf={(r) => r.Id}
              empty="No record yet."
              cells={(r) => {
                const what = `${typeName(r.Type)} record ${r.Name || '@'}`;
                return [
                  r.Name || '@',
                  typeName(r.Type),
                  <span class="value">{r.Value}</span>,
                  r.Ttl,
                  ['MX', 'SRV', 'SVCB', 'HTTPS'].includes(typeName(r.Type)) ? r.Priority : '',
                  <>
                    <button type="button" aria-expanded={editing === r.Id} onClick={() => setEditing(editing === r.Id ? undefined : r.Id)}>
                      Edit {what}
                    </button>{' '}
                    <ActionButton
                      label={`Delete ${what}`}
                      confirmText={`Delete the ${what}?`}
                      run={async () => {
                        await api.del(`/dnszone/${zoneId}/records/${r.Id}`);
                        reload();
                      }}
                    />
                  </>,
                ];
              }}
              below={(r) => (editing === r.Id ? <RecordForm zoneId={zoneId} all={all} typeField={typeField} record={r} done={reload} /> : null)}
            />
            <h2>Add a record</h2>
            <RecordForm zoneId={zoneId} all={all} typeField={typeField} done={reload} />
          </>
        );
      }}
    </Loading>
  );
}
