/**
 * The platform's reference response schemas (test/reference/responses.json, derived by
 * scripts/reference-responses.mjs) as Ajv validators, one per operation and status, compiled on
 * first use: the suite makes tens of thousands of requests over a few dozen operations.
 */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { AMENDED } from './reference-exceptions.js';
import { schemaAjv } from './schema-ajv.js';

type Schema = Record<string, unknown>;
/** Per status, the reference's JSON body schema, or null when it declares that status without one. */
type Statuses = Record<string, Schema | null>;
interface Derived {
  paths: Record<string, Record<string, Statuses>>;
  components: Record<string, Schema>;
}
export type DocumentName = 'core' | 'containers' | 'video';

export interface ReferenceOperation {
  document: DocumentName;
  /** As the reference names it, e.g. `GET /apps/{appId}`. */
  name: string;
  statuses: Statuses;
}

const derived = JSON.parse(readFileSync(new URL('../reference/responses.json', import.meta.url), 'utf8')) as Record<DocumentName, Derived>;

/** Paths compared as the router does: case-insensitively, whatever the parameters are called. */
export const pathKey = (method: string, path: string) =>
  `${method.toUpperCase()} ${path
    .toLowerCase()
    .replace(/:[^/]+/g, '{}')
    .replace(/\{[^}]+\}/g, '{}')}`;

const operations = new Map<string, ReferenceOperation>();
for (const document of ['core', 'containers', 'video'] as const) {
  for (const [path, item] of Object.entries(derived[document].paths)) {
    for (const [method, statuses] of Object.entries(item)) {
      operations.set(`${document} ${pathKey(method, path)}`, { document, name: `${method.toUpperCase()} ${path}`, statuses });
    }
  }
}

export function referenceOperation(document: DocumentName, method: string, path: string): ReferenceOperation | undefined {
  return operations.get(`${document} ${pathKey(method, path)}`);
}

/** Where each converted schema object is in the reference, to name the rule an answer breaks. */
const locations = new WeakMap<object, string>();

/** `containers#/components/schemas/EndpointStickySession/properties/cookieName`, for a schema Ajv reports. */
export const referenceLocation = (schema: unknown): string | undefined => (schema && typeof schema === 'object' ? locations.get(schema) : undefined);

/**
 * OpenAPI 3.0 to the JSON Schema Ajv reads: `nullable` becomes a `null` alternative, and references
 * name their document. `additionalProperties: false` is dropped: the check is that every answer has
 * what the reference promises, in the reference's types and bounds; a property edgeplane adds (the
 * part 7 error fields next to the core API's three, for one) breaks no client.
 */
function toJsonSchema(schema: unknown, document: DocumentName, where: string): unknown {
  if (Array.isArray(schema)) return schema.map((s, i) => toJsonSchema(s, document, `${where}/${i}`));
  if (!schema || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === '$ref') out[key] = `${document}${String(value)}`;
    else if (key === 'additionalProperties' && value === false) continue;
    else if (key === 'properties') {
      out[key] = Object.fromEntries(Object.entries(value as Schema).map(([name, s]) => [name, toJsonSchema(s, document, `${where}/properties/${name}`)]));
    } else out[key] = toJsonSchema(value, document, `${where}/${key}`);
  }
  locations.set(out, where);
  if (nullable !== true) return out;
  const either = typeof out['type'] === 'string' && !out['enum'] ? { ...out, type: [out['type'], 'null'] } : { anyOf: [out, { type: 'null' }] };
  locations.set(either, where);
  return either;
}

// verbose: errors carry the schema object that failed, which `referenceLocation` names.
const ajv = schemaAjv({ allErrors: true, verbose: true });
// Numbers are checked against their declared width; `schemaAjv` accepts any for request schemas.
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
ajv.addFormat('byte', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= 255 });
ajv.addFormat('guid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
for (const document of ['core', 'containers', 'video'] as const) {
  const components = Object.fromEntries(
    Object.entries(derived[document].components).map(([name, s]) => [name, toJsonSchema(s, document, `${document}#/components/schemas/${name}`)]),
  );
  ajv.addSchema({ $id: document, components: { schemas: components } });
}

const validators = new Map<string, ValidateFunction>();

/** The validator of an operation's answer with `status`, or undefined when the reference declares no body schema for it. */
export function responseValidator(operation: ReferenceOperation, status: number): ValidateFunction | undefined {
  const declared = operation.statuses[String(status)];
  if (!declared) return undefined;
  const key = `${operation.name} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const amended = AMENDED.find((a) => a.operation === operation.name && a.status === status);
    const schema = amended ? amended.amend(declared) : declared;
    validate = ajv.compile(toJsonSchema(schema, operation.document, `${operation.document} ${operation.name} ${status}`) as Schema);
    validators.set(key, validate);
  }
  return validate;
}
