/**
 * Seals the credential fields of a resource document before it is stored and opens them after it
 * is read, so the database never holds a password, key or token in clear. Paths are dotted; `*`
 * walks every element of an array (`Hostnames.*.CertificateKey`).
 */
import type { Secrets } from './secrets.js';

type Walk = (value: string) => string;

function apply(target: unknown, path: readonly string[], fn: Walk): void {
  if (target === null || typeof target !== 'object') return;
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (head === '*') {
    if (Array.isArray(target)) for (const item of target) apply(item, rest, fn);
    return;
  }
  const record = target as Record<string, unknown>;
  if (rest.length === 0) {
    const value = record[head];
    if (typeof value === 'string' && value.length > 0) record[head] = fn(value);
    return;
  }
  apply(record[head], rest, fn);
}

/**
 * `target` with the string at `path` replaced by `fn(value)`, copying only the objects and arrays
 * on the way to a changed value (each once: `own` holds the copies already made). A copy of the
 * whole document (structuredClone) cost more than anything else in a write of a large zone.
 */
function sealedCopy(target: unknown, path: readonly string[], fn: Walk, own: WeakSet<object>): unknown {
  if (target === null || typeof target !== 'object') return target;
  const [head, ...rest] = path;
  if (head === undefined) return target;
  if (head === '*') {
    if (!Array.isArray(target)) return target;
    let out = target;
    for (let i = 0; i < target.length; i++) {
      const next = sealedCopy(target[i], rest, fn, own);
      if (next === target[i]) continue;
      if (!own.has(out)) own.add((out = out.slice()));
      out[i] = next;
    }
    return out;
  }
  const record = target as Record<string, unknown>;
  const current = record[head];
  const next = rest.length > 0 ? sealedCopy(current, rest, fn, own) : typeof current === 'string' && current.length > 0 ? fn(current) : current;
  if (next === current) return target;
  let out = record;
  if (!own.has(out)) own.add((out = { ...record }));
  out[head] = next;
  return out;
}

export class SealedFields<T> {
  private readonly paths: string[][];
  constructor(
    private readonly secrets: Secrets,
    paths: readonly string[],
  ) {
    this.paths = paths.map((p) => p.split('.'));
  }

  /** A sealed copy; the caller's object is left as it was (the two share what sealing leaves alone). */
  seal(doc: T): T {
    const own = new WeakSet<object>();
    let sealed: unknown = doc;
    for (const p of this.paths) sealed = sealedCopy(sealed, p, (v) => this.secrets.seal(v), own);
    return sealed as T;
  }

  /** Opens in place: the document was just parsed from the store and belongs to the caller. */
  open(doc: T): T {
    for (const p of this.paths) apply(doc, p, (v) => this.secrets.open(v));
    return doc;
  }
}
