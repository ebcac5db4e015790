/**
 * fast-check arbitraries that turn one operation of the OpenAPI document into hostile requests:
 * each starts from a valid request (so it reaches deep into the handler) and breaks a few things
 * about it: types, bounds, missing and extra fields, odd strings, bad ids, bad headers.
 */
import fc from 'fast-check';
import { deref, sample, type ApiDocument, type Operation, type Param, type Schema } from '../security/support/operations.js';
import { resourceOf, type World } from '../security/support/world.js';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** The operation it was generated from, for the report. */
  operation: string;
}

export interface Keys {
  full: string;
  readOnly: string;
  otherAccount: string;
}

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\u0001\u0002\u001f',
  '\t\r\n',
  '\u202eevil',
  'Ω≈ç√∫˜µ≤≥÷',
  '𝕳𝖊𝖑𝖑𝖔 🧨',
  '\uD800',
  'é'.normalize('NFD'),
  '../../../etc/passwd',
  '..\\..\\windows',
  '%2e%2e%2f',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '%s%s%n',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'null',
  'true',
  '-1',
  '1e309',
  'NaN',
  'x'.repeat(300),
  'y'.repeat(5_000),
  'z'.repeat(70_000),
];
const ODD_NUMBERS = [
  0, -1, 1, -0, 0.5, -2147483649, 2147483647, 2147483648, 4294967296, 9007199254740991, 9007199254740993, -9007199254740993, 1e308, -1e308, 5e-324,
];
const BAD_IDS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '99999999999999999999999',
  '9007199254740993',
  'abc',
  '%20',
  '..',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e',
  '%00',
  '%ff',
  '%C0%AE',
  'x'.repeat(2000),
  '%F0%9F%92%A3',
  'null',
  '[]',
  '{}',
];
/** Raw (already encoded) path values; the others are percent-encoded. */
const isRaw = (v: string) => v.includes('%') || v === '..';

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/json',
  'application/merge-patch+json',
  'application/problem+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/json; charset=latin1',
  'application/octet-stream',
  '',
  ';;;',
  'application/json, text/plain',
];

const RAW_BODIES = [
  '',
  'not json',
  '{',
  '}',
  '[',
  '{"a":',
  'null',
  '[]',
  '"text"',
  '123',
  'true',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  `{"a":${'{"a":'.repeat(40)}1${'}'.repeat(41)}`,
  '\u0000',
  '\uFEFF{}',
  '{"Name":"dup","Name":"dup2"}',
];

/** Valid-or-broken values for a value of `schema`, at most `depth` objects deep. */
function valueFor(doc: ApiDocument, schemaIn: Schema | undefined, depth: number, name?: string): fc.Arbitrary<unknown> {
  const s = deref(doc, schemaIn);
  const valid = fc.constant(null).map(() => sample(doc, s, 0, name));
  const wrongType = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.string(),
    fc.constant([]),
    fc.constant({}),
    fc.array(fc.integer(), { maxLength: 3 }),
  );
  const types = Array.isArray(s['type']) ? (s['type'] as string[]) : [s['type'] as string | undefined];
  const options: fc.Arbitrary<unknown>[] = [valid, wrongType];
  if (types.includes('integer') || types.includes('number')) {
    const bounds = ['minimum', 'maximum'].flatMap((k) => (typeof s[k] === 'number' ? [(s[k] as number) - 1, s[k] as number, (s[k] as number) + 1] : []));
    options.push(fc.constantFrom(...ODD_NUMBERS, ...bounds), fc.integer());
  }
  if (types.includes('string')) {
    const lengths = typeof s['maxLength'] === 'number' ? ['a'.repeat(s['maxLength'] as number), 'a'.repeat((s['maxLength'] as number) + 1)] : [];
    options.push(fc.constantFrom(...ODD_STRINGS, ...lengths), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }));
  }
  if (Array.isArray(s['enum'])) options.push(fc.constantFrom(...(s['enum'] as unknown[])), fc.constant('not-a-member'), fc.constant(99));
  if (types.includes('array') || s['items']) {
    options.push(fc.array(depth > 0 ? valueFor(doc, s['items'] as Schema, depth - 1) : wrongType, { maxLength: 4 }), fc.constant(new Array(10_001).fill(0)));
  }
  if (depth > 0 && (types.includes('object') || s['properties'])) options.push(objectFor(doc, s, depth - 1));
  return fc.oneof(...options);
}

/** A valid object with a few properties broken, some required ones dropped, unknown ones added. */
function objectFor(doc: ApiDocument, s: Schema, depth: number): fc.Arbitrary<unknown> {
  const props = Object.entries((s['properties'] as Record<string, Schema> | undefined) ?? {});
  const broken =
    props.length === 0
      ? fc.constant([] as [string, unknown][])
      : fc.array(
          fc.constantFrom(...props).chain(([name, sub]) => valueFor(doc, sub, depth, name).map((v) => [name, v] as [string, unknown])),
          { maxLength: 3 },
        );
  const required = (s['required'] as string[] | undefined) ?? [];
  const dropped = fc.subarray(required, { maxLength: Math.min(2, required.length) });
  const extra = fc.dictionary(
    fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...props.map(([n]) => n.toLowerCase()), 'Id', 'id', 'AccountId', 'UserId')),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 2 },
  );
  return fc.tuple(broken, dropped, extra).map(([changes, drop, added]) => {
    const base = sample(doc, s) as Record<string, unknown>;
    const out: Record<string, unknown> = base !== null && typeof base === 'object' ? { ...base, ...added } : { ...added };
    for (const [name, value] of changes) out[name] = value;
    for (const name of drop) delete out[name];
    return out;
  });
}

function bodyFor(doc: ApiDocument, op: Operation): fc.Arbitrary<string | undefined> {
  const schema = op.body?.schema;
  const raw = fc.constantFrom(...RAW_BODIES);
  const random = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
  if (!schema) return fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, raw, random);
  if (op.body!.contentType !== 'application/json') {
    return fc.oneof(fc.constantFrom(...ODD_STRINGS), fc.string({ unit: 'grapheme', maxLength: 200 }), raw);
  }
  const shaped = valueFor(doc, schema, 2).map((v) => (v === undefined ? undefined : JSON.stringify(v)));
  return fc.oneof({ arbitrary: shaped, weight: 8 }, { arbitrary: fc.constant(undefined), weight: 1 }, raw, random);
}

function paramValue(op: Operation, param: Param, worlds: () => World[]): fc.Arbitrary<string> {
  const resource = resourceOf(op, param);
  const real = resource
    ? fc.nat().map((i) => {
        const all = worlds();
        return String(all[i % all.length]![resource]);
      })
    : fc.constant(String(sample({ paths: {}, components: { schemas: {} } }, param.schema)));
  return fc.oneof({ arbitrary: real, weight: 6 }, fc.constantFrom(...BAD_IDS), fc.integer().map(String), fc.string({ maxLength: 12 }));
}

function urlFor(op: Operation, worlds: () => World[]): fc.Arbitrary<string> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const pathValues = fc.tuple(...pathParams.map((p) => paramValue(op, p, worlds)));
  const query = fc.tuple(
    ...queryParams.map((p) =>
      fc.option(fc.oneof(paramValue(op, p, worlds), fc.constantFrom('true', 'false', '0', '-5', '1001', '2147483648', ''), fc.string({ maxLength: 6 })), {
        nil: undefined,
      }),
    ),
  );
  const extraQuery = fc.option(fc.constantFrom('x=1', 'page=a&page=b', '%zz=1', 'a[b]=c', '__proto__[x]=1', `q=${'w'.repeat(5000)}`), { nil: undefined });
  return fc.tuple(pathValues, query, extraQuery).map(([values, queries, extra]) => {
    let i = 0;
    const path = op.path.replace(/\{\w+\}/g, () => {
      const v = values[i++]!;
      return isRaw(v) ? v : encodeURIComponent(v);
    });
    const parts = queryParams.flatMap((p, j) => (queries[j] === undefined ? [] : [`${encodeURIComponent(p.name)}=${encodeURIComponent(queries[j]!)}`]));
    if (extra) parts.push(extra);
    return parts.length > 0 ? `${path}?${parts.join('&')}` : path;
  });
}

function headersFor(op: Operation, keys: Keys): fc.Arbitrary<Record<string, string>> {
  const accessKey = fc.oneof(
    { arbitrary: fc.constant(keys.full), weight: 40 },
    fc.constant(keys.readOnly),
    fc.constant(keys.otherAccount),
    fc.constant(undefined),
    fc.constant(''),
    fc.constant('k'.repeat(10_000)),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
    fc.constant(`${keys.full} `),
    fc.constant(keys.full.toUpperCase()),
  );
  const contentType = fc.oneof({ arbitrary: fc.constant(op.body?.contentType ?? 'application/json'), weight: 8 }, fc.constantFrom(...CONTENT_TYPES));
  const extra = fc.option(
    fc.constantFrom<[string, string]>(
      ['idempotency-key', 'x'.repeat(300)],
      ['idempotency-key', 'has spaces'],
      ['x-request-id', 'bad id with spaces'],
      ['x-request-id', 'r'.repeat(500)],
      ['authorization', 'Bearer nothing'],
      ['accept', 'application/xml'],
      ['content-length', '0'],
      ['transfer-encoding', 'chunked'],
    ),
    { nil: undefined },
  );
  return fc.tuple(accessKey, contentType, extra).map(([key, type, more]) => {
    const h: Record<string, string> = { 'content-type': type };
    if (key !== undefined) h['accesskey'] = key;
    if (more) h[more[0]] = more[1];
    return h;
  });
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function requestFor(doc: ApiDocument, op: Operation, keys: Keys, worlds: () => World[]): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof({ arbitrary: fc.constant(op.method), weight: 30 }, fc.constantFrom(...OTHER_METHODS));
  return fc.record({ method, url: urlFor(op, worlds), headers: headersFor(op, keys), payload: bodyFor(doc, op) }).map((r) => {
    const req: FuzzRequest = { method: r.method, url: r.url, headers: r.headers, operation: `${op.method} ${op.path}` };
    if (r.payload !== undefined) req.payload = r.payload;
    else delete req.headers['content-type'];
    return req;
  });
}
