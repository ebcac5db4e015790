/**
 * A form generated from a body's schema (schema.ts): a labelled control per field, its
 * description beside it, its bounds checked as it is sent, and the API's own complaints shown
 * next to the field they name. Only the fields changed from `initial` are sent.
 */
import { useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { ApiError, errorText, type FieldProblem } from './api';
import { type Field, getPath, problemWith, setPath } from './schema';

export type Raw = string | boolean;

/** The value a control holds for a field's value. */
export function rawOf(field: Field, value: unknown): Raw {
  if (field.kind === 'boolean') return value === true;
  if (field.kind === 'list') return Array.isArray(value) ? value.join('\n') : '';
  return value === undefined || value === null ? '' : String(value);
}

/** The value the API takes for what a control holds. */
export function valueForApi(field: Field, raw: Raw): unknown {
  if (field.kind === 'boolean') return raw === true;
  const text = String(raw);
  if (field.kind === 'list')
    return text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  if (text === '') return field.nullable ? null : field.kind === 'text' ? '' : undefined;
  if (field.kind === 'integer' || field.kind === 'number') return Number(text);
  if (field.kind === 'choice') return typeof field.choices[0]?.value === 'number' ? Number(text) : text;
  return text;
}

/** The API names a field as the client sent it, maybe with a path (`Triggers[0].Type`, `/autoScaling/min`): as a dotted path. */
const pathOf = (field: string) =>
  field
    .replace(/^\/+/, '')
    .replace(/\//g, '.')
    .replace(/\[\d+\]/g, '')
    .toLowerCase();

/** The API's complaints by the form's field names (the whole path, else its first name); the rest come back apart. */
export function problemsByField(fields: Field[], problems: FieldProblem[]): { byField: Record<string, string>; other: string[] } {
  const names = new Map(fields.map((field) => [field.name.toLowerCase(), field.name]));
  const byField: Record<string, string> = {};
  const other: string[] = [];
  for (const problem of problems) {
    const path = pathOf(problem.field ?? '');
    const name = names.get(path) ?? names.get(path.split('.')[0]!);
    if (name) byField[name] = byField[name] ? `${byField[name]} ${problem.message}` : problem.message;
    else other.push(problem.field ? `${problem.field}: ${problem.message}` : problem.message);
  }
  return { byField, other };
}

interface ControlProps {
  id: string;
  field: Field;
  raw: Raw;
  problem: string | undefined;
  onInput: (raw: Raw) => void;
}

export function Control({ id, field, raw, problem, onInput }: ControlProps) {
  const help = field.description ? `${id}-help` : undefined;
  const error = problem ? `${id}-error` : undefined;
  const describedBy = [error, help].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: field.name,
    'aria-invalid': problem ? true : undefined,
    'aria-required': field.required ? true : undefined,
    'aria-describedby': describedBy,
  };
  let control: ComponentChildren;
  switch (field.kind) {
    case 'boolean':
      control = <input type="checkbox" {...common} checked={raw === true} onChange={(e) => onInput(e.currentTarget.checked)} />;
      break;
    case 'choice':
      control = (
        <select {...common} value={String(raw)} onChange={(e) => onInput(e.currentTarget.value)}>
          {field.nullable || !field.required ? <option value="">(unset)</option> : null}
          {field.choices.map((choice) => (
            <option key={String(choice.value)} value={String(choice.value)}>
              {choice.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'list':
      control = <textarea {...common} rows={3} value={String(raw)} onInput={(e) => onInput(e.currentTarget.value)} />;
      break;
    case 'integer':
    case 'number':
      control = (
        <input
          type="number"
          inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
          step={field.kind === 'integer' ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          {...common}
          value={String(raw)}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      );
      break;
    default:
      control = <input type="text" maxLength={field.maxLength} {...common} value={String(raw)} onInput={(e) => onInput(e.currentTarget.value)} />;
  }
  return (
    <div class={`field field-${field.kind}${problem ? ' invalid' : ''}`}>
      <label for={id}>
        {field.label}
        {field.required ? <span aria-hidden="true"> *</span> : null}
        {field.kind === 'list' ? <span class="hint"> (one per line)</span> : null}
      </label>
      {control}
      {problem ? (
        <p class="problem" id={error}>
          {problem}
        </p>
      ) : null}
      {help ? (
        <p class="help" id={help}>
          {field.description}
        </p>
      ) : null}
    </div>
  );
}

export interface SchemaFormProps {
  /** Makes the controls' ids unique on the page. */
  id: string;
  fields: Field[];
  initial?: Record<string, unknown>;
  submitLabel: string;
  /** Sent: the changed fields (all filled ones when there is no `initial`). */
  onSubmit: (body: Record<string, unknown>) => Promise<unknown>;
  /** Shown after a successful send. */
  done?: string;
  legend?: string;
  children?: ComponentChildren;
}

export function SchemaForm({ id, fields, initial, submitLabel, onSubmit, done, legend, children }: SchemaFormProps) {
  // A new resource's required choice starts at its first value, as the list shows it.
  const firstChoice = (field: Field) => (!initial && field.kind === 'choice' && field.required && !field.nullable ? field.choices[0]?.value : undefined);
  const start = () => Object.fromEntries(fields.map((field) => [field.name, rawOf(field, getPath(initial, field.name) ?? firstChoice(field))]));
  const [raw, setRaw] = useState<Record<string, Raw>>(start);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const controlId = (field: Field) => `${id}-${field.name}`;

  const focusFirstProblem = (found: Record<string, string>) => {
    const first = fields.find((field) => found[field.name]);
    if (first) setTimeout(() => formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(controlId(first))}`)?.focus(), 0);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    const found: Record<string, string> = {};
    for (const field of fields) {
      const before = rawOf(field, getPath(initial, field.name));
      const now = raw[field.name] ?? before;
      if (initial && now === before) continue;
      if (!initial && (now === '' || now === false) && !field.required) continue;
      const value = valueForApi(field, now);
      const problem = problemWith(field, value);
      if (problem) found[field.name] = problem;
      else if (value !== undefined) setPath(body, field.name, value);
    }
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setMessage({ text: 'Some fields need a change (see beside them).', error: true });
      focusFirstProblem(found);
      return;
    }
    setBusy(true);
    setMessage(undefined);
    try {
      await onSubmit(body);
      setMessage({ text: done ?? 'Saved.', error: false });
    } catch (error) {
      if (error instanceof ApiError) {
        const { byField, other } = problemsByField(fields, error.fields);
        setProblems(byField);
        focusFirstProblem(byField);
        setMessage({ text: other.length > 0 ? other.join(' ') : error.message, error: true });
      } else setMessage({ text: errorText(error), error: true });
    } finally {
      setBusy(false);
    }
  };

  const controls = fields.map((field) => (
    <Control
      key={field.name}
      id={controlId(field)}
      field={field}
      raw={raw[field.name] ?? rawOf(field, undefined)}
      problem={problems[field.name]}
      onInput={(value) => setRaw((old) => ({ ...old, [field.name]: value }))}
    />
  ));
  return (
    <form ref={formRef} class="schema-form" onSubmit={submit} noValidate>
      {legend ? (
        <fieldset>
          <legend>{legend}</legend>
          {controls}
        </fieldset>
      ) : (
        controls
      )}
      {children}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
        <Status message={message} />
      </div>
    </form>
  );
}

/** A form's outcome, read out by screen readers as it changes. */
export function Status({ message }: { message: { text: string; error: boolean } | undefined }) {
  return (
    <p class={message?.error ? 'status error' : 'status'} role={message?.error ? 'alert' : 'status'}>
      {message?.text ?? ''}
    </p>
  );
}

/** Rows of an array of objects (a rule's triggers, a container's variables, a video's chapters): a fieldset per row, its fields the item schema's. */
export function RowsEditor({
  id,
  legend,
  noun,
  fields,
  rows,
  setRows,
}: {
  id: string;
  legend: string;
  /** One row's name, in its buttons and legend: "trigger", "variable". */
  noun: string;
  fields: Field[];
  rows: Record<string, Raw>[];
  setRows: (rows: Record<string, Raw>[]) => void;
}) {
  const blank = () => Object.fromEntries(fields.map((f) => [f.name, rawOf(f, f.kind === 'choice' ? f.choices[0]?.value : undefined)]));
  return (
    <fieldset>
      <legend>{legend}</legend>
      {rows.map((row, at) => (
        <fieldset class="row" key={at}>
          <legend>
            {noun.charAt(0).toUpperCase() + noun.slice(1)} {at + 1}
          </legend>
          {fields.map((field) => (
            <Control
              key={field.name}
              id={`${id}-${noun}-${at}-${field.name}`}
              field={{ ...field, description: at === 0 ? field.description : '' }}
              raw={row[field.name] ?? rawOf(field, undefined)}
              problem={undefined}
              onInput={(raw) => setRows(rows.map((r, i) => (i === at ? { ...r, [field.name]: raw } : r)))}
            />
          ))}
          <button type="button" onClick={() => setRows(rows.filter((_, i) => i !== at))}>
            Remove {noun} {at + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" onClick={() => setRows([...rows, blank()])}>
        Add {/^[aeiou]/.test(noun) ? 'an' : 'a'} {noun}
      </button>
    </fieldset>
  );
}

/** Rows for an array of objects as the API sent it. */
export const rowsOf = (fields: Field[], items: unknown[] | null | undefined): Record<string, Raw>[] =>
  (items ?? []).map((item) => Object.fromEntries(fields.map((field) => [field.name, rawOf(field, getPath(item, field.name))])));

/** The array of objects the API takes for rows: empty values left out (the API's defaults). */
export const itemsOfRows = (fields: Field[], rows: Record<string, Raw>[]): Record<string, unknown>[] =>
  rows.map((row) => {
    const item: Record<string, unknown> = {};
    for (const field of fields) {
      const value = valueForApi(field, row[field.name] ?? rawOf(field, undefined));
      if (value !== undefined && value !== null && !(value === '' && !field.required)) setPath(item, field.name, value);
    }
    return item;
  });
