/**
 * Every operation of a running app, read from its own OpenAPI document, so a route added later is
 * covered by the security tests without touching them. The container operations are also served
 * without the `/mc` prefix (hidden from the document); those mirrors are listed too.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TestContext } from '../../helpers/app.js';
import { base64, CERTIFICATE_KEY_PEM, CERTIFICATE_PEM } from '../../http/pull-zones/fixtures.js';

export type Schema = Record<string, unknown>;

export interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** OpenAPI template: `/pullzone/{id}`. */
  path: string;
  operationId: string;
  params: Param[];
  body?: { schema: Schema; contentType: string; required: boolean };
  /** Declares `security: []`: reachable without credentials. */
  public: boolean;
  operator: boolean;
  container: boolean;
  /** The unprefixed copy of a container operation. */
  mirror: boolean;
  /** What the operation declares (`x-edgeplane-access`): whether a read-only key may call it. Operator routes declare none. */
  access?: string;
}

export interface ApiDocument {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Schema> };
}

export async function readDocument(t: TestContext): Promise<ApiDocument> {
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  return JSON.parse(res.body) as ApiDocument;
}

export function operationsOf(doc: ApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op['requestBody'] as { content?: Record<string, { schema: Schema }>; required?: boolean } | undefined;
      const [contentType, media] = Object.entries(content?.content ?? {})[0] ?? [];
      const operation: Operation = {
        method: method.toUpperCase(),
        path,
        operationId: String(op['operationId']),
        params: ((op['parameters'] as Param[] | undefined) ?? []).map((p) => ({ name: p.name, in: p.in, required: p.required === true, schema: p.schema })),
        public: Array.isArray(op['security']) && (op['security'] as unknown[]).length === 0,
        operator: path.startsWith('/_edgeplane/'),
        container: path.startsWith('/mc/'),
        mirror: false,
      };
      if (op['x-edgeplane-access'] !== undefined) operation.access = String(op['x-edgeplane-access']);
      if (contentType && media) operation.body = { schema: media.schema, contentType, required: content?.required === true };
      out.push(operation);
      if (operation.container) out.push({ ...operation, path: path.slice('/mc'.length), mirror: true });
    }
  }
  return out;
}

/** Anything not declared a read counts as a write, so a missing declaration can only make a test stricter. */
export const isWrite = (op: Operation) => op.access !== 'read';

/**
 * `/pullzone/{id}` with `{id: 5}` → `/pullzone/5`; required query parameters are added, with the
 * value given, else a sample of their schema (a date for a date, a member of an enum).
 */
export function urlOf(op: Operation, value: (param: Param) => string | undefined): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const param = op.params.find((p) => p.in === 'path' && p.name === name)!;
    return encodeURIComponent(value(param) ?? 'x');
  });
  const query = op.params
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(value(p) ?? String(sample({ paths: {}, components: { schemas: {} } }, p.schema)))}`);
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

/** Follows `$ref`s into the document's components. */
export function deref(doc: ApiDocument, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let hops = 0; typeof s['$ref'] === 'string' && hops < 20; hops++) {
    const name = (s['$ref'] as string).split('/').pop()!;
    s = doc.components.schemas[name] ?? {};
  }
  return s;
}

const types = (s: Schema): string[] => (Array.isArray(s['type']) ? (s['type'] as string[]) : typeof s['type'] === 'string' ? [s['type'] as string] : []);

let unique = 0;
/** Strings that satisfy the common patterns and formats, tried in order; names stay unique. */
const stringCandidates = () => {
  unique++;
  return [
    `w${unique}`,
    `web-${unique}`,
    `example${unique}.com`,
    'DE',
    '1',
    `sha256:${'a'.repeat(64)}`,
    '192.0.2.1',
    'https://example.com/',
    '00000000-0000-4000-8000-000000000000',
  ];
};

/**
 * Values the domain accepts for properties whose rules go beyond their schema (a hostname must be
 * a domain name), keyed by property name in lower case.
 */
export const NAME_HINTS: Record<string, () => unknown> = {
  // The name the test certificate was issued for.
  hostname: () => 'cdn.example.com',
  certificate: () => base64(CERTIFICATE_PEM),
  certificatekey: () => base64(CERTIFICATE_KEY_PEM),
  domain: () => `d${++unique}.example`,
  blockedip: () => '192.0.2.10',
  originurl: () => 'https://origin.example.com',
  // The image a world's registry holds (world.ts), so questions asked of it have an answer.
  imagename: () => WORLD_IMAGE.name,
  imagenamespace: () => WORLD_IMAGE.namespace,
  tag: () => WORLD_IMAGE.tag,
};

/** The image every test registry of a world holds. */
export const WORLD_IMAGE = { namespace: 'library', name: 'hello', tag: '1.0' } as const;
/** Optional in the schema, yet required by the domain in the common case (a pull zone's origin). */
const ALWAYS_SENT = new Set(['originurl']);

/**
 * A small valid instance of `schema`: required properties only, each at its smallest allowed
 * value, so it passes validation and reaches the handler. Checked with `validate` by callers.
 */
export function sample(doc: ApiDocument, schemaIn: Schema | undefined, depth = 0, name?: string): unknown {
  const s = deref(doc, schemaIn);
  if (depth > 12) return null;
  const hint = name === undefined ? undefined : NAME_HINTS[name.toLowerCase()];
  if (hint) return hint();
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum'])) return (s['enum'] as unknown[]).find((v) => v !== null) ?? null;
  if (s['default'] !== undefined) return s['default'];
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = s[key] as Schema[] | undefined;
    if (options) {
      const option = options.find((o) => !types(deref(doc, o)).includes('null')) ?? options[0];
      return sample(doc, option, depth + 1);
    }
  }
  const type = types(s).find((ty) => ty !== 'null') ?? (s['properties'] ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (s['properties'] as Record<string, Schema> | undefined) ?? {};
      for (const prop of (s['required'] as string[] | undefined) ?? []) out[prop] = sample(doc, props[prop], depth + 1, prop);
      for (const prop of Object.keys(props)) if (ALWAYS_SENT.has(prop.toLowerCase())) out[prop] = sample(doc, props[prop], depth + 1, prop);
      return out;
    }
    case 'array': {
      const min = typeof s['minItems'] === 'number' ? (s['minItems'] as number) : 0;
      return Array.from({ length: min }, () => sample(doc, s['items'] as Schema, depth + 1));
    }
    case 'string': {
      if (s['format'] === 'date-time') return '2026-01-01T00:00:00Z';
      const pattern = typeof s['pattern'] === 'string' ? new RegExp(s['pattern'] as string, 'u') : undefined;
      const min = (s['minLength'] as number | undefined) ?? 0;
      const max = (s['maxLength'] as number | undefined) ?? Infinity;
      const fits = (v: string) => v.length >= min && v.length <= max && (!pattern || pattern.test(v));
      return stringCandidates().find(fits) ?? 'x'.repeat(Math.max(min, 1));
    }
    case 'integer':
    case 'number': {
      const min =
        typeof s['minimum'] === 'number' ? (s['minimum'] as number) : typeof s['exclusiveMinimum'] === 'number' ? (s['exclusiveMinimum'] as number) + 1 : 1;
      const max = typeof s['maximum'] === 'number' ? (s['maximum'] as number) : Infinity;
      return Math.min(Math.max(min, 1), max);
    }
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** A validator for request bodies against the document's own schemas. */
export function bodyValidator(doc: ApiDocument): (schema: Schema) => ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true });
  (addFormatsModule as unknown as (a: Ajv) => Ajv)(ajv);
  for (const f of ['int32', 'int64', 'double', 'decimal']) ajv.addFormat(f, true);
  ajv.addSchema({ $id: 'doc', components: doc.components } as never);
  const cache = new Map<Schema, ValidateFunction>();
  const rewrite = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(rewrite)
      : node !== null && typeof node === 'object'
        ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? `doc${v}` : rewrite(v)]))
        : node;
  return (schema) => {
    let fn = cache.get(schema);
    if (!fn) {
      fn = ajv.compile(rewrite(schema) as object);
      cache.set(schema, fn);
    }
    return fn;
  };
}

/**
 * Body properties that name another resource by id (`StorageZoneId`, `cdn.pullZoneId`), as
 * JSON-pointer-like paths (`*` for an array item), with the kind of resource they name.
 */
export function linkFields(doc: ApiDocument, schema: Schema | undefined): { path: string[]; kind: LinkKind }[] {
  const found: { path: string[]; kind: LinkKind }[] = [];
  const walk = (s: Schema, path: string[], depth: number) => {
    if (depth > 8) return;
    const d = deref(doc, s);
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const o of (d[key] as Schema[] | undefined) ?? []) walk(o, path, depth + 1);
    if (d['items']) walk(d['items'] as Schema, [...path, '*'], depth + 1);
    for (const [name, sub] of Object.entries((d['properties'] as Record<string, Schema> | undefined) ?? {})) {
      const kind = linkKindOf(name);
      if (kind) found.push({ path: [...path, name], kind });
      else walk(sub, [...path, name], depth + 1);
    }
  };
  if (schema) walk(schema, [], 0);
  return found;
}

export type LinkKind = 'pullZone' | 'storageZone' | 'dnsZone' | 'dnsRecord' | 'videoLibrary' | 'app' | 'registry';

function linkKindOf(property: string): LinkKind | undefined {
  const p = property.toLowerCase();
  // A log forwarding configuration names its application as `app`.
  if (p === 'app') return 'app';
  if (!p.endsWith('id')) return undefined;
  // `registryId` of the registry questions; a container's `imageRegistryId` is not checked against the account's registries.
  if (p === 'registryid') return 'registry';
  if (p.endsWith('pullzoneid')) return 'pullZone';
  if (p.endsWith('storagezoneid')) return 'storageZone';
  if (p === 'dnszoneid') return 'dnsZone';
  if (p === 'dnsrecordid') return 'dnsRecord';
  if (p === 'videolibraryid') return 'videoLibrary';
  if (p.endsWith('containersappid')) return 'app';
  return undefined;
}

/**
 * Sets `value` at `path` inside `body`, creating the objects and single-item arrays on the way
 * with sample values, so the result still passes validation.
 */
export function withValueAt(doc: ApiDocument, schema: Schema, body: unknown, path: string[], value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const s = deref(doc, schema);
  const options = ((s['anyOf'] ?? s['oneOf']) as Schema[] | undefined)?.map((o) => deref(doc, o));
  const resolved = options?.find((o) => (head === '*' ? o['items'] : (o['properties'] as Schema | undefined)?.[head])) ?? s;
  if (head === '*') {
    const items = resolved['items'] as Schema;
    const current = Array.isArray(body) && body.length > 0 ? body[0] : sample(doc, items);
    return [withValueAt(doc, items, current, rest, value)];
  }
  const props = (resolved['properties'] as Record<string, Schema> | undefined) ?? {};
  const base = (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : sample(doc, resolved)) as Record<string, unknown>;
  const current = base[head] ?? (rest.length > 0 ? sample(doc, props[head]) : undefined);
  return { ...base, [head]: withValueAt(doc, props[head] ?? {}, current, rest, value) };
}

/** `['endpoints', '*', 'cdn', 'pullZoneId']` → `endpoints[0].cdn.pullZoneId`, as errors name it. */
export const fieldName = (path: string[]) => path.reduce((acc, part) => (part === '*' ? `${acc}[0]` : acc ? `${acc}.${part}` : part), '');
