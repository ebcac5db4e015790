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

export class SealedFields<T> {
  private readonly paths: string[][];
  constructor(private readonly secrets: Secrets, paths: readonly string[]) {
    this.paths = paths.map((p) => p.split('.'));
  }

  /** A sealed deep copy; the caller's object is left as it was. */
  seal(doc: T): T {
    const copy = structuredClone(doc);
    for (const p of this.paths) apply(copy, p, (v) => this.secrets.seal(v));
    return copy;
  }

  /** Opens in place: the document was just parsed from the store and belongs to the caller. */
  open(doc: T): T {
    for (const p of this.paths) apply(doc, p, (v) => this.secrets.open(v));
    return doc;
  }
}
