/**
 * V8 keeps an object with more than 128 properties made by `JSON.parse` in dictionary mode: a hash
 * table, not a hidden class. A pull zone has 168 fields, so every zone read from the store is one,
 * and a copy of it (`{ ...zone }`) costs ~31 µs, against ~0.2 µs for the same copy of an object
 * with a hidden class. (Rebuilding every zone read was measured too: reads that copy nothing, such
 * as `GET /pullzone/{id}`, got ~5% slower, so only the paths that copy use this.)
 *
 * `fastCopier(keys)` returns a function that rebuilds such a document as an object with a hidden
 * class (~5 µs): a constructor made from the schema's field names stores them in order, and V8
 * sizes its objects to hold them all in place. Fields the list does not name are copied after, so
 * nothing stored is ever dropped; the prototype is `Object.prototype`, as a parsed object's is.
 */
type Shape = new (doc: Record<string, unknown>) => Record<string, unknown>;

export function fastCopier<T extends object>(keys: readonly string[]): (doc: T) => T {
  // Made on first use, not at start-up: generated code is not in the code cache.
  let shape: Shape | undefined;
  const copied = { count: 0 };
  return (doc) => {
    shape ??= makeShape(keys, copied);
    const source = doc as Record<string, unknown>;
    const out = new shape(source);
    // A parsed document has no undefined values: every key it has that the list names was copied.
    if (copied.count !== Object.keys(source).length) {
      for (const key of Object.keys(source)) {
        // Defined, not assigned: a stored key such as `__proto__` stays a field.
        if (!Object.hasOwn(out, key)) Object.defineProperty(out, key, { value: source[key], writable: true, enumerable: true, configurable: true });
      }
    }
    return out as T;
  };
}

function makeShape(keys: readonly string[], copied: { count: number }): Shape {
  const stores = keys.map((key) => {
    const name = JSON.stringify(key);
    return `if (doc[${name}] !== undefined) { this[${name}] = doc[${name}]; n++; }`;
  });
  const body = `return function Shape(doc) {\nlet n = 0;\n${stores.join('\n')}\ncopied.count = n;\n};`;
  const shape = new Function('copied', body)(copied) as Shape & { prototype: object };
  shape.prototype = Object.prototype;
  return shape;
}
