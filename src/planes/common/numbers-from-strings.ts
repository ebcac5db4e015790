/**
 * JSON numbers sent as strings (`{"OptimizerImageQuality": "70"}`), which the platform's .NET
 * serializers read as numbers. Only what both of them read is accepted, so a client that works
 * here works there whichever one runs: System.Text.Json with AllowReadingFromString takes a sign,
 * digits and (for non-integers) a fraction and an exponent, with nothing around them; Newtonsoft
 * takes the same and more (whitespace). Hence, refused: `" 70"`, `"0x10"`, `""`, `"70.5"` or
 * `"1e2"` for an integer, `".5"`, and `"NaN"`/`"Infinity"` (System.Text.Json reads these into a
 * double, but JSON cannot carry them back out). Enums are refused as strings, names or digits:
 * the platform declares them as integers, and System.Text.Json reads an enum from a number only.
 *
 * The work happens only after a body failed validation, at the places the validator found a
 * string where a number belongs; the body is then validated again, so bounds still apply and
 * nothing but a number reaches a numeric field.
 */
import type { ErrorObject } from 'ajv';

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function numberFor(error: ErrorObject): number | undefined {
  if (error.keyword !== 'type' || typeof error.data !== 'string') return undefined;
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
  if (schema['enum'] !== undefined) return undefined;
  const types = Array.isArray(schema['type']) ? (schema['type'] as unknown[]) : [schema['type']];
  const grammar = types.includes('number') ? NUMBER : types.includes('integer') ? INTEGER : undefined;
  if (!grammar?.test(error.data)) return undefined;
  const value = Number(error.data);
  // "-0" is 0; a value too large for a double is left for the validator to refuse.
  return Number.isFinite(value) ? value + 0 : undefined;
}

/** Sets `value` at a JSON pointer below the root; false when there is nothing to set there. */
function setAt(root: unknown, pointer: string, value: number): boolean {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = segments.pop();
  if (last === undefined) return false;
  let parent = root;
  for (const segment of segments) {
    if (parent === null || typeof parent !== 'object') return false;
    parent = (parent as Record<string, unknown>)[segment];
  }
  if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, last)) return false;
  (parent as Record<string, unknown>)[last] = value;
  return true;
}

/** Turns the numeric strings the errors point at into numbers; true when any was changed. */
export function readNumbersFromStrings(body: unknown, errors: readonly ErrorObject[]): boolean {
  let changed = false;
  for (const error of errors) {
    const value = numberFor(error);
    if (value !== undefined && setAt(body, error.instancePath, value)) changed = true;
  }
  return changed;
}
