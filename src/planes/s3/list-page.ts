/**
 * A page of a listing in key order, the way S3 pages every listing (objects, uploads in progress):
 * with a delimiter, the keys under a common prefix are rolled up into it and skipped in one step
 * (the next fetch starts past the prefix), so a folder with a million keys costs one entry, not a
 * million. And what every listing reads from its query and ends its answer with.
 */
import { countOf } from './query-params.js';
import type { S3Call } from './types.js';
import { element } from './xml.js';

/** The most items a listing answers at once, and the batch it fetches them in. */
export const MAX_KEYS = 1000;

/** One page of a listing: the items and the common prefixes they were rolled up into, in key order. */
export interface Page<T, C> {
  items: T[];
  prefixes: string[];
  truncated: boolean;
  /** Where the next page starts (exclusive): past the last item, or past everything under the last common prefix. */
  next: C | undefined;
  /** The last item or common prefix listed (v1's NextMarker, ListMultipartUploads' NextKeyMarker). */
  last: { item: T } | { prefix: string } | undefined;
}

/** What is listed, in key order: objects, uploads in progress. */
export interface Listed<T, C> {
  fetch(after: C | undefined, limit: number): Promise<T[]>;
  keyOf(item: T): string;
  /** Where listing resumes after this item. */
  cursorOf(item: T): C;
  /** Where listing resumes past every key under a common prefix. */
  past(common: string): C;
}

/** Up to `max` items and common prefixes after `after`: keys holding `delimiter` after `prefix` are rolled up, each prefix once. */
export async function listPage<T, C>(source: Listed<T, C>, prefix: string, delimiter: string, after: C | undefined, max: number): Promise<Page<T, C>> {
  const items: T[] = [];
  const prefixes: string[] = [];
  let cursor = after;
  let last: Page<T, C>['last'];
  if (max === 0) return { items, prefixes, truncated: false, next: undefined, last };
  for (;;) {
    const batch = await source.fetch(cursor, Math.min(MAX_KEYS, max - items.length - prefixes.length + 1));
    if (batch.length === 0) return { items, prefixes, truncated: false, next: undefined, last };
    for (const item of batch) {
      const key = source.keyOf(item);
      const cut = delimiter === '' ? -1 : key.indexOf(delimiter, prefix.length);
      if (items.length + prefixes.length === max) return { items, prefixes, truncated: true, next: cursor, last };
      if (cut >= 0) {
        const common = key.slice(0, cut + delimiter.length);
        prefixes.push(common);
        last = { prefix: common };
        cursor = source.past(common);
        break;
      }
      items.push(item);
      last = { item };
      cursor = source.cursorOf(item);
    }
  }
}

/** A marker that is a common prefix resumes past everything under it, as S3 does. */
export const resumesPast = (marker: string, prefix: string, delimiter: string) => delimiter !== '' && marker.endsWith(delimiter) && marker.startsWith(prefix);

/** The key or common prefix a page listed last (v1's NextMarker, NextKeyMarker). */
export function lastKey<T>(page: Page<T, unknown>, keyOf: (item: T) => string): string | undefined {
  const last = page.last;
  return last === undefined ? undefined : 'item' in last ? keyOf(last.item) : last.prefix;
}

/** What every listing asks in its query: the prefix, the delimiter, and how many at most (`max-keys`, `max-uploads`). */
export function listingQuery(call: S3Call, maxName: string): { prefix: string; delimiter: string; max: number } {
  return { prefix: call.query.get('prefix') ?? '', delimiter: call.query.get('delimiter') ?? '', max: countOf(call.query, maxName, MAX_KEYS) };
}

/** The end of every listing's answer: the encoding type when one was asked, the entries, then the common prefixes. */
export function listingEnd(call: S3Call, encode: (s: string) => string, entries: string[], prefixes: string[]): string[] {
  return [
    call.query.has('encoding-type') ? element('EncodingType', 'url') : '',
    ...entries,
    ...prefixes.map((p) => element('CommonPrefixes', [element('Prefix', encode(p))])),
  ];
}
