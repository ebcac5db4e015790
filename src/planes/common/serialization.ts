/**
 * Response serializers compiled from the route schemas (fast-json-stringify): the schema is also
 * the allowlist, so an undeclared field is never sent. A serializer is compiled when its route
 * first answers with that status (start-up stays short: most routes of a run are never called), and
 * cached per schema text (and object), so building another app in the same process (each test
 * builds one, with new schema objects of the same text) compiles nothing again.
 */
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { ErrorBody } from '../../schemas/error.js';
import { isArrayOrPaged } from '../../schemas/paging.js';

/** The OpenAPI number formats our schemas use; the serializer's validator (for unions) must know them. */
const NUMBER_FORMATS = { int32: true, int64: true, double: true, decimal: true } as const;

const cache = new WeakMap<object, (data: unknown) => string>();
const cacheByText = new Map<string, (data: unknown) => string>();
const externalSchemas = { ErrorBody } as unknown as Record<string, fastJson.Schema>;

function compiled(schema: object): (data: unknown) => string {
  let fn = cache.get(schema);
  if (fn) return fn;
  const text = JSON.stringify(schema);
  fn = cacheByText.get(text);
  if (!fn) {
    // The shared schemas only where one is referenced (the error answers): fast-json-stringify
    // checks every schema it is handed against JSON Schema's own, at each compile.
    const external = text.includes('"$ref"') ? { schema: externalSchemas } : {};
    fn = fastJson(schema as fastJson.Schema, { ...external, ajv: { formats: NUMBER_FORMATS } }) as (data: unknown) => string;
    cacheByText.set(text, fn);
  }
  cache.set(schema, fn);
  return fn;
}

export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const key = schema as object;
  const ready = cache.get(key);
  if (ready) return ready;
  let fn: ((data: unknown) => string) | undefined;
  return (data) => (fn ??= compiled(key))(data);
};

/**
 * Serializes ArrayOrPaged answers with one compiled serializer per shape, picked by Array.isArray.
 * The general `anyOf` code validates the whole answer against a shape before writing it: slow
 * for long lists, and a 500 should a stored item ever drift from the schema. Other schemas go to
 * `base` unchanged. The app's serializer compiler (app.ts).
 */
export function serializeArrayOrPaged(base: FastifySerializerCompiler<unknown>): FastifySerializerCompiler<unknown> {
  return (route) => {
    const schema = route.schema as { anyOf?: unknown[] };
    const [array, paged] = schema.anyOf ?? [];
    if (!isArrayOrPaged(schema) || !array || !paged) return base(route);
    const writeArray = base({ ...route, schema: array });
    const writePage = base({ ...route, schema: paged });
    return (data) => (Array.isArray(data) ? writeArray(data) : writePage(data));
  };
}
