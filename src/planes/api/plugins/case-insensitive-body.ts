/**
 * The platform's core API binds JSON property names case-insensitively (`{"domain": …}` works
 * like `{"Domain": …}`), and clients rely on it. Before validation, body keys are renamed to the
 * schema's spelling; the key map is built once per schema.
 */
type Json = unknown;
interface KeyMap {
  names: Map<string, string>;
  children: Map<string, KeyMap>;
  items?: KeyMap;
}

const cache = new WeakMap<object, KeyMap | null>();

function buildMap(schema: Record<string, unknown> | undefined): KeyMap | null {
  if (!schema || typeof schema !== 'object') return null;
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  let map: KeyMap | null = null;
  const props = schema['properties'] as Record<string, Record<string, unknown>> | undefined;
  if (props) {
    map = { names: new Map(), children: new Map() };
    for (const [name, sub] of Object.entries(props)) {
      map.names.set(name.toLowerCase(), name);
      const child = buildMap(sub);
      if (child) map.children.set(name, child);
    }
  } else if (schema['items'] && typeof schema['items'] === 'object') {
    const items = buildMap(schema['items'] as Record<string, unknown>);
    if (items) map = { names: new Map(), children: new Map(), items };
  } else if (Array.isArray(schema['anyOf'])) {
    for (const option of schema['anyOf'] as Record<string, unknown>[]) {
      map = buildMap(option);
      if (map) break;
    }
  }
  cache.set(schema, map);
  return map;
}

function rename(value: Json, map: KeyMap): Json {
  if (Array.isArray(value)) {
    if (map.items) for (let i = 0; i < value.length; i++) value[i] = rename(value[i], map.items);
    return value;
  }
  if (value === null || typeof value !== 'object' || map.names.size === 0) return value;
  const source = value as Record<string, Json>;
  const out: Record<string, Json> = {};
  for (const key of Object.keys(source)) {
    const canonical = map.names.get(key.toLowerCase());
    // An exact-case key wins over a differently cased duplicate.
    if (canonical === undefined) out[key] = source[key];
    else if (!(canonical in out) || key === canonical) {
      const child = map.children.get(canonical);
      out[canonical] = child ? rename(source[key], child) : source[key];
    }
  }
  return out;
}

export function bindCaseInsensitively(body: Json, schema: unknown): Json {
  const map = buildMap(schema as Record<string, unknown> | undefined);
  return map ? rename(body, map) : body;
}
