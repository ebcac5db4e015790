/**
 * The API's own description of its bodies (/openapi.json, generated from the server's TypeBox
 * schemas) read into field descriptors: each field's kind, bounds, choices and description come
 * from there, so a form shows and checks what the API checks, declared once on the server.
 */
import { api } from './api';
import { labelOf } from './labels';

export { labelOf };

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  title?: string;
  description?: string;
  default?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  $ref?: string;
  anyOf?: JsonSchema[];
  'x-groups'?: Record<string, string[]>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface Document {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> }; parameters?: Parameter[] }>>;
  components: { schemas: Record<string, JsonSchema> };
}

export type FieldKind = 'boolean' | 'integer' | 'number' | 'text' | 'choice' | 'list' | 'unsupported';

export interface Choice {
  value: string | number;
  label: string;
}

export interface Field {
  /** The API's name of the field; a dotted path (`autoScaling.min`) for a field of a nested object. */
  name: string;
  /** What a person reads: the schema's `title`, else the name split into words (`OriginUrl`: "Origin URL"). */
  label: string;
  kind: FieldKind;
  required: boolean;
  nullable: boolean;
  description: string;
  minimum?: number | undefined;
  maximum?: number | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  pattern?: string | undefined;
  choices: Choice[];
}

const loading = new Map<string, Promise<Document>>();
/** The OpenAPI document at an address (this server's by default), fetched once. */
const documentOnce = (url = '/openapi.json'): Promise<Document> => {
  let document = loading.get(url);
  if (!document) {
    document = (url.startsWith('/') ? api.get<Document>(url) : fetch(url).then((r) => r.json() as Promise<Document>)).catch((error: unknown) => {
      loading.delete(url);
      throw error;
    });
    loading.set(url, document);
  }
  return document;
};

function resolve(document: Document, schema: JsonSchema): JsonSchema {
  if (schema.$ref) return resolve(document, document.components.schemas[schema.$ref.split('/').pop() ?? ''] ?? {});
  return schema;
}

/** The schema of an operation's JSON body: `bodySchema('post', '/pullzone/{id}')`; `at`: another plane's document. */
export async function bodySchema(method: string, path: string, at?: string): Promise<JsonSchema> {
  const document = await documentOnce(at);
  const schema = document.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`The API's document has no JSON body for ${method.toUpperCase()} ${path}.`);
  return resolve(document, schema);
}

/** A named model of the document (`DnsRecord`), its references resolved one level; `at`: another plane's document. */
export async function model(name: string, at?: string): Promise<JsonSchema> {
  const document = await documentOnce(at);
  return resolve(document, { $ref: `#/components/schemas/${name}` });
}

const typesOf = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** Where "0 = Premium, 1 = Volume." begins in a description: the names of an integer enum's values. */
const VALUE_NAMES = /:?\s*(-?\d+ = .*)$/s;

function enumLabels(description: string): Map<string, string> {
  const list = VALUE_NAMES.exec(description)?.[1]?.replace(/\.\s*$/, '') ?? '';
  const labels = new Map<string, string>();
  for (const entry of list.split(/,\s*(?=-?\d+ = )/)) {
    const at = entry.indexOf(' = ');
    if (at > 0) labels.set(entry.slice(0, at).trim(), entry.slice(at + 3).trim());
  }
  // The other spelling some descriptions use: "0 created, 1 uploaded, …".
  if (labels.size === 0) for (const match of description.matchAll(/(?:^|, )(\d+) ([a-z][^,.]*)/gi)) labels.set(match[1]!, match[2]!.trim());
  return labels;
}

/** The names of an integer enum's values, from its description: `0 = Premium, 1 = Volume` or `0 created, 1 uploaded`. */
export const valueNames = (description: string | undefined): Map<string, string> => enumLabels(description ?? '');

/** The description without the list of value names (the choices show them). */
const plainDescription = (description: string) => description.replace(VALUE_NAMES, '').trim();

export function fieldOf(name: string, schema: JsonSchema, required: boolean): Field {
  const types = typesOf(schema);
  const nullable = types.includes('null');
  const type = types.find((t) => t !== 'null');
  const description = schema.description ?? '';
  const label = schema.title ?? labelOf(name);
  const base = { name, label, required, nullable, description, choices: [] as Choice[] };
  const values = schema.enum?.filter((v): v is string | number => v !== null);
  if (values && values.length > 0) {
    const labels = enumLabels(description);
    return {
      ...base,
      kind: 'choice',
      description: labels.size > 0 ? plainDescription(description) : description,
      choices: values.map((value) => ({ value, label: labels.get(String(value)) ?? String(value) })),
    };
  }
  switch (type) {
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'integer':
    case 'number':
      return {
        ...base,
        kind: type,
        // The int64 limits say nothing to a person; they are the type's, not the field's.
        minimum: schema.minimum !== undefined && Math.abs(schema.minimum) < 2 ** 53 - 1 ? schema.minimum : undefined,
        maximum: schema.maximum !== undefined && schema.maximum < 2 ** 53 - 1 ? schema.maximum : undefined,
      };
    case 'string':
      return { ...base, kind: 'text', minLength: schema.minLength, maxLength: schema.maxLength, pattern: schema.pattern };
    case 'array': {
      const items = schema.items ?? {};
      return typesOf(items).includes('string') && !items.enum ? { ...base, kind: 'list' } : { ...base, kind: 'unsupported' };
    }
    default:
      return { ...base, kind: 'unsupported' };
  }
}

/** The fields of an object schema a form can show, in the document's order. */
export function fieldsOf(schema: JsonSchema): Field[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .map(([name, property]) => fieldOf(name, property, required.has(name)))
    .filter((field) => field.kind !== 'unsupported');
}

/** An object schema's property, its reference resolved (`objectAt(app, 'autoScaling')`): a nested object or an array's item. */
export async function propertyOf(schema: JsonSchema, path: string, at?: string): Promise<JsonSchema> {
  const document = await documentOnce(at);
  let node: JsonSchema = resolve(document, schema);
  for (const step of path.split('.')) {
    const next: JsonSchema = resolve(document, node.properties?.[step] ?? {});
    const inner = next.anyOf?.find((s) => !typesOf(s).includes('null')) ?? next;
    node = resolve(document, typesOf(inner).includes('array') ? (inner.items ?? {}) : inner);
  }
  return node;
}

/** The fields of an object nested in a body, named by their path (`autoScaling.min`), labelled as their own. */
export const nestedFields = (prefix: string, schema: JsonSchema, required = true): Field[] =>
  fieldsOf(schema).map((field) => ({ ...field, name: `${prefix}.${field.name}`, required: required && field.required }));

/** Sets a dotted path's value in a body, making the objects on the way. */
export function setPath(body: Record<string, unknown>, path: string, value: unknown): void {
  const steps = path.split('.');
  let node = body;
  for (const step of steps.slice(0, -1)) node = (node[step] ??= {}) as Record<string, unknown>;
  node[steps.at(-1)!] = value;
}

/** A dotted path's value in an object. */
export const getPath = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, step) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined), value);

/** What is wrong with a value by the field's own bounds, or undefined; the API checks again. */
export function problemWith(field: Field, value: unknown): string | undefined {
  const empty = value === undefined || value === null || value === '';
  if (empty) return field.required ? `${field.label} is required.` : undefined;
  if (field.kind === 'integer' || field.kind === 'number') {
    const n = Number(value);
    if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n)))
      return `${field.label} must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}.`;
    if (field.minimum !== undefined && n < field.minimum) return `${field.label} must be at least ${field.minimum}.`;
    if (field.maximum !== undefined && n > field.maximum) return `${field.label} must be at most ${field.maximum}.`;
  }
  if (field.kind === 'text' && typeof value === 'string') {
    if (field.minLength !== undefined && value.length < field.minLength) return `${field.label} must have at least ${field.minLength} characters.`;
    if (field.maxLength !== undefined && value.length > field.maxLength) return `${field.label} must have at most ${field.maxLength} characters.`;
    if (field.pattern !== undefined && !new RegExp(field.pattern, 'u').test(value)) return `${field.label} does not have the expected form.`;
  }
  return undefined;
}

/** The fields of an operation's body, picked by name (in that order) or all of them. */
export async function bodyFields(method: string, path: string, pick?: string[]): Promise<Field[]> {
  const fields = fieldsOf(await bodySchema(method, path));
  if (!pick) return fields;
  return pick.map((name) => fields.find((field) => field.name === name)).filter((field): field is Field => field !== undefined);
}

/** A query parameter of an operation as a field (POST /purge takes its URL so). */
export async function parameterField(method: string, path: string, name: string): Promise<Field> {
  const document = await documentOnce();
  const parameter = document.paths[path]?.[method]?.parameters?.find((p) => p.name === name);
  if (!parameter) throw new Error(`The API's document has no parameter ${name} for ${method.toUpperCase()} ${path}.`);
  return fieldOf(name, { ...parameter.schema, description: parameter.description ?? parameter.schema?.description ?? '' }, parameter.required === true);
}

/** The first object schema anywhere in a document with all these properties (a model a document repeats inline). */
export async function modelWith(properties: string[], at?: string): Promise<JsonSchema | undefined> {
  const document = await documentOnce(at);
  const visit = (node: unknown): JsonSchema | undefined => {
    if (Array.isArray(node)) return node.map(visit).find(Boolean);
    if (typeof node !== 'object' || node === null) return undefined;
    const schema = node as JsonSchema;
    if (schema.properties && properties.every((name) => name in schema.properties!)) return schema;
    return Object.values(node).map(visit).find(Boolean);
  };
  return visit(document);
}
