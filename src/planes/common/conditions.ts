/**
 * Conditional requests (RFC 9110 §13.2.2, in its order of evaluation): If-Match and
 * If-Unmodified-Since fail with 412; If-None-Match and If-Modified-Since answer 304 to a read.
 * If-Range decides whether a Range header is honoured at all.
 */
import { headerIn as header, type RequestHeaders as Headers } from './headers.js';

export interface Validators {
  /** Quoted strong entity tag, e.g. `"9a0364b9e99bb480dd25e1f0284c8555"`. */
  etag: string;
  lastModified: Date;
}

export type Outcome = 'proceed' | 'not-modified' | 'precondition-failed';

/** `"a", W/"b"` → the opaque tags, weak ones unprefixed (comparison is weak for 304s, strong for 412s). */
function tags(value: string): { tag: string; weak: boolean }[] | '*' {
  if (value.trim() === '*') return '*';
  return [...value.matchAll(/(W\/)?("[^"]*")/g)].map((m) => ({ tag: m[2]!, weak: m[1] !== undefined }));
}

/** HTTP dates have second precision: what is compared is the modification time rounded down. */
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const parsedDate = (value: string | undefined) => {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : Math.floor(time / 1000);
};

export function evaluateConditions(method: string, headers: Headers, v: Validators): Outcome {
  const read = method === 'GET' || method === 'HEAD';
  const ifMatch = header(headers, 'if-match');
  if (ifMatch !== undefined) {
    const wanted = tags(ifMatch);
    if (wanted !== '*' && !wanted.some((t) => !t.weak && t.tag === v.etag)) return 'precondition-failed';
  } else {
    const since = parsedDate(header(headers, 'if-unmodified-since'));
    if (since !== undefined && seconds(v.lastModified) > since) return 'precondition-failed';
  }
  const ifNoneMatch = header(headers, 'if-none-match');
  if (ifNoneMatch !== undefined) {
    const wanted = tags(ifNoneMatch);
    if (wanted === '*' || wanted.some((t) => t.tag === v.etag)) return read ? 'not-modified' : 'precondition-failed';
  } else if (read) {
    const since = parsedDate(header(headers, 'if-modified-since'));
    if (since !== undefined && seconds(v.lastModified) <= since) return 'not-modified';
  }
  return 'proceed';
}

/** Whether a Range header still applies: an If-Range naming another version means "send it whole". */
export function rangeStillApplies(headers: Headers, v: Validators): boolean {
  const ifRange = header(headers, 'if-range');
  if (ifRange === undefined) return true;
  if (ifRange.trim().startsWith('"') || ifRange.trim().startsWith('W/')) return ifRange.trim() === v.etag;
  const date = parsedDate(ifRange);
  return date !== undefined && seconds(v.lastModified) === date;
}
