/** A form for one operation of the API: its body's fields (all, or those picked) loaded from the document, then a SchemaForm. */
import { api } from './api';
import { SchemaForm, type SchemaFormProps } from './form';
import { bodyFields } from './schema';
import { Loading, useLoad } from './ui';

export interface OperationFormProps extends Omit<SchemaFormProps, 'fields'> {
  /** The operation as the document names it: `post /pullzone/{id}`. */
  operation: string;
  pick?: string[];
  heading?: string;
}

export function OperationForm({ operation, pick, heading, ...form }: OperationFormProps) {
  const [method = 'post', path = '/'] = operation.split(' ');
  const fields = useLoad(() => bodyFields(method, path, pick), [operation]);
  return (
    <>
      {heading ? <h2>{heading}</h2> : null}
      <Loading loaded={fields}>{(list) => <SchemaForm {...form} fields={list} />}</Loading>
    </>
  );
}

/** A resource's settings: the update operation's fields, filled with the resource, saved with what changed. */
export function SettingsForm({ operation, path, initial, saved }: { operation: string; path: string; initial: Record<string, unknown>; saved: () => void }) {
  return (
    <OperationForm
      operation={operation}
      id="settings"
      initial={initial}
      submitLabel="Save settings"
      onSubmit={async (body) => {
        await api.post(path, body);
        saved();
      }}
    />
  );
}
