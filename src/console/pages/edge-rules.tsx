/** A pull zone's edge rules: listed in order, switched on and off, deleted, added and edited with their triggers. */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { type Raw, rawOf, RowsEditor, SchemaForm, valueForApi } from '../form';
import { bodyFields, fieldsOf, model } from '../schema';
import { ActionButton, Loading, useLoad } from '../ui';
import type { PullZone } from './pull-zones';

interface Trigger {
  Type: number;
  PatternMatches: string[];
  PatternMatchingType: number;
  Parameter1: string;
}

interface EdgeRule {
  Guid: string;
  ActionType: number;
  Description: string;
  Enabled: boolean;
  Triggers: Trigger[];
  [field: string]: unknown;
}

const RULE_FIELDS = ['Description', 'ActionType', 'ActionParameter1', 'ActionParameter2', 'ActionParameter3', 'TriggerMatchingType', 'Enabled'];

function RuleForm({ zone, rule, done }: { zone: PullZone; rule?: EdgeRule; done: () => void }) {
  const forms = useLoad(
    async () => ({
      rule: await bodyFields('post', '/pullzone/{pullZoneId}/edgerules/addOrUpdate', RULE_FIELDS),
      trigger: fieldsOf(await model('EdgeRuleTrigger')),
    }),
    [],
  );
  const [rows, setRows] = useState<Record<string, Raw>[] | undefined>(undefined);
  return (
    <Loading loaded={forms}>
      {(f) => {
        const triggers =
          rows ?? (rule?.Triggers ?? []).map((t) => Object.fromEntries(f.trigger.map((field) => [field.name, rawOf(field, t[field.name as keyof Trigger])])));
        return (
          <SchemaForm
            id={rule ? `rule-${rule.Guid}` : 'new-rule'}
            fields={f.rule}
            initial={rule}
            submitLabel={rule ? 'Save edge rule' : 'Add edge rule'}
            done="Edge rule saved."
            onSubmit={async (body) => {
              const sent = rule ? { ...rule, ...body } : body;
              sent['Triggers'] = triggers.map((row) => Object.fromEntries(f.trigger.map((field) => [field.name, valueForApi(field, row[field.name] ?? '')])));
              delete sent['ReadOnly'];
              delete sent['OrderIndex'];
              await api.post(`/pullzone/${zone.Id}/edgerules/addOrUpdate`, sent);
              done();
            }}
          >
            <RowsEditor id={rule ? `rule-${rule.Guid}` : 'new-rule'} legend="Triggers" noun="trigger" fields={f.trigger} rows={triggers} setRows={setRows} />
          </SchemaForm>
        );
      }}
    </Loading>
  );
}

export function EdgeRules({ zone, reload }: { zone: PullZone; reload: () => void }) {
  const rules = (zone['EdgeRules'] as EdgeRule[] | null) ?? [];
  const [editing, setEditing] = useState<string | undefined>(undefined);
  return (
    <>
      {rules.length === 0 ? <p>No edge rule yet.</p> : null}
      <ol class="rules">
        {rules.map((rule) => (
          <li key={rule.Guid}>
            <strong>{rule.Description || '(no description)'}</strong> {rule.Enabled ? '' : '(off)'} — {rule.Triggers.length} trigger(s){' '}
            <button type="button" onClick={() => setEditing(editing === rule.Guid ? undefined : rule.Guid)}>
              Edit {rule.Description || 'rule'}
            </button>{' '}
            <ActionButton
              label={rule.Enabled ? `Turn off ${rule.Description || 'rule'}` : `Turn on ${rule.Description || 'rule'}`}
              run={async () => {
                await api.post(`/pullzone/${zone.Id}/edgerules/${rule.Guid}/setEdgeRuleEnabled`, { Id: zone.Id, Value: !rule.Enabled });
                reload();
              }}
            />{' '}
            <ActionButton
              label={`Delete ${rule.Description || 'rule'}`}
              confirmText="Delete this edge rule?"
              run={async () => {
                await api.del(`/pullzone/${zone.Id}/edgerules/${rule.Guid}`);
                reload();
              }}
            />
            {editing === rule.Guid ? <RuleForm zone={zone} rule={rule} done={reload} /> : null}
          </li>
        ))}
      </ol>
      <h2>Add an edge rule</h2>
      <RuleForm zone={zone} done={reload} />
    </>
  );
}
