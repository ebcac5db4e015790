/**
 * The headers of an answer the edge compressed, and of one it could have: what tells a client
 * and every cache after the edge which representation they hold.
 *
 * - `Vary: Accept-Encoding` on every answer that may be compressed, compressed or not (added to
 *   the origin's own Vary, once);
 * - the encoded representation's ETag is the identity's with `-<coding>` inside its quotes
 *   (`"abc"` → `"abc-gzip"`, `W/"abc"` → `W/"abc-gzip"`), as Apache's mod_deflate does: two
 *   representations never share a tag (RFC 9110 §8.8.3), so an `If-None-Match` holding either
 *   gets its 304 and an `If-Range` never joins bytes of one to the other;
 * - `Content-Length` and the digests of the identity bytes go, `Accept-Ranges` too (a range is
 *   served from the identity representation).
 */
import type { Coding } from './accept-encoding.js';

type Headers = Record<string, string | string[]>;

/** Headers that describe the identity bytes, left off an encoded answer. */
const OF_THE_BYTES = ['content-length', 'content-md5', 'content-digest', 'repr-digest', 'digest', 'accept-ranges'];

/** The origin's Vary with Accept-Encoding added (unless it names it already, or varies by everything). */
export const varyWithAcceptEncoding = (vary: string | string[] | undefined): string => varyWith(vary, 'Accept-Encoding');

/** The origin's Vary with `name` added (unless it names it already, or varies by everything). */
export function varyWith(vary: string | string[] | undefined, name: string): string {
  const text = Array.isArray(vary) ? vary.join(', ') : vary;
  if (text === undefined || text.trim() === '') return name;
  const names = text.split(',').map((n) => n.trim().toLowerCase());
  return names.includes(name.toLowerCase()) || names.includes('*') ? text : `${text}, ${name}`;
}

/** The ETag of the representation encoded with `coding`; undefined when the identity has none (or one that is no entity tag). */
export function encodedEtag(etag: string | undefined, coding: Coding): string | undefined {
  if (etag === undefined || !/^(W\/)?"[^"]*"$/.test(etag)) return undefined;
  return `${etag.slice(0, -1)}-${coding}"`;
}

/** An answer's headers made those of its encoded representation, in place (Content-Length is the caller's: a stream has none). */
export function markEncoded(headers: Headers, coding: Coding): Headers {
  for (const name of OF_THE_BYTES) delete headers[name];
  headers['vary'] = varyWithAcceptEncoding(headers['vary']);
  headers['content-encoding'] = coding;
  const etag = encodedEtag(typeof headers['etag'] === 'string' ? headers['etag'] : undefined, coding);
  if (etag === undefined) delete headers['etag'];
  else headers['etag'] = etag;
  return headers;
}
