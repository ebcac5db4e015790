/**
 * Building blocks shared by every resource schema. The platform's OpenAPI models mark optional
 * values as nullable; JSON Schema 2020-12 (and OpenAPI 3.1) spells that as a type list, which also
 * keeps the compiled serializers on their fast path (no anyOf branch per field).
 */
import { Type, type TSchema, type TUnsafe, type Static } from 'typebox';

type Described = { title?: string; description?: string };

export const Int32 = (o: Described & { minimum?: number; maximum?: number; default?: number } = {}) =>
  Type.Integer({ format: 'int32', minimum: -2147483648, maximum: 2147483647, ...o });

export const Int64 = (o: Described & { minimum?: number; maximum?: number; default?: number } = {}) =>
  Type.Integer({ format: 'int64', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...o });

export const Double = (o: Described & { minimum?: number; maximum?: number } = {}) => Type.Number({ format: 'double', ...o });

/** Money and prices: the platform sends them as JSON numbers. */
export const Decimal = (o: Described = {}) => Type.Number({ format: 'decimal', ...o });

export const DateTime = (o: Described = {}) => Type.String({ format: 'date-time', ...o });

/** An integer enum whose members are the listed values (the platform's enums travel as integers). */
export const IntEnum = <V extends number>(values: readonly V[], o: Described = {}) => Type.Unsafe<V>({ type: 'integer', enum: [...values], ...o });

export const StringEnum = <V extends string>(values: readonly V[], o: Described = {}) => Type.Unsafe<V>({ type: 'string', enum: [...values], ...o });

/**
 * `T | null` for a schema of a single JSON type (string, integer, number, boolean, array, object).
 * The type list form is what fast-json-stringify and OpenAPI 3.1 both understand best.
 */
export function Nullable<T extends TSchema>(schema: T, o: Described = {}): TUnsafe<Static<T> | null> {
  const s = schema as unknown as Record<string, unknown>;
  const type = s['type'];
  if (typeof type !== 'string') throw new Error('Nullable() needs a schema with a single type');
  const copy: Record<string, unknown> = { ...s, ...o, type: [type, 'null'] };
  // An enum must list null too, or the validator rejects it.
  if (Array.isArray(s['enum'])) copy['enum'] = [...(s['enum'] as unknown[]), null];
  return Type.Unsafe<Static<T> | null>(copy);
}

/** Free-form JSON object (the spec says only "object"). */
export const AnyObject = (o: Described = {}) => Type.Record(Type.String(), Type.Unknown(), o);
