/**
 * The spellings real clients use for the same request, derived from one operation of the OpenAPI
 * document: a canonical request (JSON numbers, lower-case booleans, optional parameters left out,
 * no body where none is needed) and the same request as a lenient client writes it (numbers in
 * strings, `True`, parameters sent empty, an empty body with a JSON content type, names in another
 * case). Also the spellings that must stay refused: strings that are not numbers, in numeric fields.
 */
import fc from 'fast-check';
import { deref, sample, type ApiDocument, type Operation, type Param, type Schema } from '../security/support/operations.js';

export interface Spelled {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** A numeric value in a body, where it is and what its schema says. */
export interface NumberLeaf {
  path: (string | number)[];
  value: number;
  integer: boolean;
  enumerated: boolean;
}

const typesOf = (s: Schema): string[] => (Array.isArray(s['type']) ? (s['type'] as string[]) : typeof s['type'] === 'string' ? [s['type'] as string] : []);
const isNumeric = (s: Schema) => typesOf(s).some((t) => t === 'integer' || t === 'number');

/** The option of a union that fits `value` (objects and arrays are what unions differ in here). */
function fitting(doc: ApiDocument, schemaIn: Schema | undefined, value: unknown): Schema {
  const s = deref(doc, schemaIn);
  const options = (s['anyOf'] ?? s['oneOf']) as Schema[] | undefined;
  if (!options) return s;
  const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  return deref(doc, options.find((o) => typesOf(deref(doc, o)).includes(kind)) ?? options[0]);
}

/** Every number in `value`, walked along its schema. */
export function numberLeaves(doc: ApiDocument, schema: Schema | undefined, value: unknown, path: (string | number)[] = []): NumberLeaf[] {
  const s = fitting(doc, schema, value);
  if (typeof value === 'number' && isNumeric(s)) {
    return [{ path, value, integer: !typesOf(s).includes('number'), enumerated: Array.isArray(s['enum']) }];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => numberLeaves(doc, s['items'] as Schema, item, [...path, i]));
  if (value === null || typeof value !== 'object') return [];
  const props = (s['properties'] as Record<string, Schema> | undefined) ?? {};
  return Object.entries(value).flatMap(([key, item]) => numberLeaves(doc, props[key], item, [...path, key]));
}

export function setAt(value: unknown, path: (string | number)[], leaf: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return leaf;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head] = setAt(copy[head], rest, leaf);
  return copy;
}

export const fieldOf = (path: (string | number)[]) =>
  path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');

/** A valid body: the schema's sample, with some optional numeric properties set as well. */
export function bodyFor(doc: ApiDocument, op: Operation): fc.Arbitrary<unknown> {
  const schema = deref(doc, op.body?.schema);
  const objectSchema = fitting(doc, schema, {});
  const props = (objectSchema['properties'] as Record<string, Schema> | undefined) ?? {};
  const optionalNumbers = Object.entries(props).filter(
    ([name, p]) => isNumeric(deref(doc, p)) && !((objectSchema['required'] as string[]) ?? []).includes(name),
  );
  return fc.subarray(optionalNumbers).map((extra) => {
    const base = sample(doc, schema);
    if (base === null || typeof base !== 'object' || Array.isArray(base)) return base;
    const out = { ...(base as Record<string, unknown>) };
    for (const [name, p] of extra) out[name] = sample(doc, p, 1, name);
    return out;
  });
}

/** Ways a lenient client writes a number: as JSON, or in a string, with a sign or a leading zero. */
function numberSpelling(leaf: NumberLeaf, choice: number): unknown {
  if (leaf.enumerated) return leaf.value;
  switch (choice % 4) {
    case 0:
      return leaf.value;
    case 1:
      return String(leaf.value);
    case 2:
      return leaf.value >= 0 ? `+${leaf.value}` : String(leaf.value);
    default:
      return leaf.integer && leaf.value >= 0 ? `0${leaf.value}` : String(leaf.value);
  }
}

/** The body as a lenient client sends it. */
export function respellBody(doc: ApiDocument, op: Operation, body: unknown, choices: number[]): unknown {
  let out = body;
  numberLeaves(doc, op.body?.schema, body).forEach((leaf, i) => {
    out = setAt(out, leaf.path, numberSpelling(leaf, choices[i % choices.length] ?? 0));
  });
  return out;
}

/** Strings that are no number any platform serializer reads into this leaf. */
export function refusedSpellings(leaf: NumberLeaf): string[] {
  const always = ['', ' ', 'NaN', 'Infinity', '-Infinity', 'abc', '0x1', `${leaf.value} `, ` ${leaf.value}`, '1e400', '.5', '١'];
  if (leaf.enumerated) return [...always, String(leaf.value), 'A'];
  return leaf.integer ? [...always, `${leaf.value}.5`, `${leaf.value}.0`, '1e2'] : always;
}

/** A canonical value of a query parameter, as text. */
export function queryValue(param: Param, choice: number): string {
  const s = param.schema;
  if (typesOf(s).includes('boolean')) return choice % 2 === 0 ? 'true' : 'false';
  return String(sample({ paths: {}, components: { schemas: {} } }, s));
}

const CASES = [(s: string) => s, (s: string) => s.toUpperCase(), (s: string) => s.charAt(0).toUpperCase() + s.slice(1)];

/** One optional query parameter: left out or sent (canonical), and how a lenient client writes it. */
export function queryPair(param: Param, choice: number): [canonical: string | undefined, lenient: string | undefined] {
  const name = param.name;
  const spelledName = CASES[choice % CASES.length]!(name);
  switch (choice % 5) {
    case 0:
      return [undefined, undefined];
    case 1:
      return [undefined, `${name}=`];
    case 2:
      return [undefined, choice % 2 === 0 ? `${spelledName}=%20` : spelledName];
    default: {
      const value = queryValue(param, choice);
      const lenient = typesOf(param.schema).includes('boolean') ? encodeURIComponent(CASES[choice % CASES.length]!(value)) : encodeURIComponent(value);
      return [`${name}=${encodeURIComponent(value)}`, `${spelledName}=${lenient}`];
    }
  }
}

export const EMPTY_BODY_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/json', 'text/plain; charset=utf-8'];
