/**
 * Query parameters bound as the platform's ASP.NET Core model binding binds them, so generated
 * clients that work there work here:
 * - a value that is empty or only whitespace is no value: the parameter's default applies
 *   (generated clients send every optional parameter, empty when unset: `?page=&perPage=`);
 * - parameter names match in any letter case (`?IncludeCertificate=true`), the exact case winning;
 * - a repeated parameter that takes one value binds its first value;
 * - booleans are `true`/`false` in any letter case, with surrounding whitespace, as .NET's boolean
 *   parsing reads them (`True`, as .NET clients write it); `1` and `0` stay refused, as there.
 * Integers and enums keep the validator's parsing. Everything here is decided per schema once;
 * per request it is one pass over the parameters actually sent.
 */
type Query = Record<string, unknown>;

interface QueryShape {
  /** Lower-case name → name as declared. */
  names: Map<string, string>;
  declared: Set<string>;
  booleans: Set<string>;
  /** Parameters that take one value (not an array). */
  scalars: Set<string>;
}

const typesOf = (schema: Record<string, unknown>): unknown[] => (Array.isArray(schema['type']) ? schema['type'] : [schema['type']]);

function shapeOf(schema: unknown): QueryShape | undefined {
  const props = (schema as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties;
  if (!props) return undefined;
  const shape: QueryShape = { names: new Map(), declared: new Set(), booleans: new Set(), scalars: new Set() };
  for (const [name, prop] of Object.entries(props)) {
    shape.names.set(name.toLowerCase(), name);
    shape.declared.add(name);
    const types = typesOf(prop);
    if (types.includes('boolean')) shape.booleans.add(name);
    if (!types.includes('array')) shape.scalars.add(name);
  }
  return shape;
}

const isBlank = (value: unknown) => typeof value === 'string' && value.trim() === '';

function bindOne(query: Query, sent: string, shape: QueryShape): void {
  let name = sent;
  if (!shape.declared.has(sent)) {
    const declared = shape.names.get(sent.toLowerCase());
    if (declared === undefined) return;
    // The exact spelling wins over a differently cased duplicate.
    if (!Object.hasOwn(query, declared)) query[declared] = query[sent];
    delete query[sent];
    name = declared;
  }
  let value = query[name];
  if (Array.isArray(value) && shape.scalars.has(name)) value = value.find((v) => !isBlank(v));
  if (value === undefined || isBlank(value)) {
    delete query[name];
    return;
  }
  if (shape.booleans.has(name) && typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (word === 'true' || word === 'false') value = word === 'true';
  }
  query[name] = value;
}

/** Binds a parsed query in place, before it is validated against `schema`. */
export function queryBinder(schema: unknown): (query: unknown) => void {
  const shape = shapeOf(schema);
  if (!shape) return () => {};
  return (query) => {
    if (query === null || typeof query !== 'object') return;
    for (const sent in query) bindOne(query as Query, sent, shape);
  };
}
