/**
 * Request validation. Bodies are validated without the validator's type coercion (`"true"` is not
 * a boolean in JSON); only a string holding a number, in a numeric field, is read as that number,
 * as the platform reads it (numbers-from-strings.ts). Path and query values arrive as text and are
 * coerced, after query-binding.ts has bound them as the platform does. Unknown body fields are
 * dropped, as the platform ignores them, so clients written against newer versions keep working.
 *
 * Validators are compiled on a route's first request, not when the app starts: compiling the ~400
 * schemas of every route up front took most of the start-up time, and a test suite or a CI job
 * usually calls a handful of routes. A compiled validator is kept per schema text: routes build
 * their schemas when an app registers them, so another app in the same process (each test builds
 * one) has new schema objects of the same text, and compiling them again was most of a test's
 * first request (and the validator's own cache, keyed by object, grew with every app).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { readNumbersFromStrings } from './numbers-from-strings.js';
import { queryBinder } from './query-binding.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: true,
    allErrors: true,
    strict: false,
    verbose: true,
  });
  addFormats(ajv);
  ajv.addFormat('int32', true).addFormat('int64', true).addFormat('double', true).addFormat('decimal', true);
  return ajv;
}

// Made on the first validation rather than at start-up (each ~1 ms with its formats).
let bodyAjv: Ajv | undefined;
let textAjv: Ajv | undefined;
const ajvFor = (httpPart: string | undefined): Ajv => (httpPart === 'body' ? (bodyAjv ??= makeAjv(false)) : (textAjv ??= makeAjv(true)));

const compiledByText = new Map<string, ValidateFunction>();

function compileOnce(httpPart: string | undefined, schema: object): ValidateFunction {
  const text = `${httpPart === 'body' ? 'body' : 'text'}:${JSON.stringify(schema)}`;
  let compiled = compiledByText.get(text);
  if (!compiled) {
    compiled = ajvFor(httpPart).compile(schema);
    compiledByText.set(text, compiled);
  }
  return compiled;
}

interface Validate {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let compiled: ValidateFunction | undefined;
  let bindQuery: ((query: unknown) => void) | undefined;
  // Fastify reads `errors` off the function it was given after a failed call, so mirror them here.
  const validate: Validate = (data) => {
    compiled ??= compileOnce(httpPart, schema as object);
    if (httpPart === 'querystring') (bindQuery ??= queryBinder(schema))(data);
    let valid = compiled(data);
    // A valid body costs nothing more; a failed one is looked at once for numbers sent as strings.
    if (!valid && httpPart === 'body' && compiled.errors && readNumbersFromStrings(data, compiled.errors)) valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
};
