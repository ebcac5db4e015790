/**
 * The host a Referer names, read as a browser reads the URL (WHATWG URL, Node's `URL`): in the
 * http(s) schemes `\` ends the authority like `/`, so `http://evil.test\@good.example/` is a page
 * on evil.test whose path is `/@good.example/`; credentials (`user:pw@`) are never the host;
 * percent-encoded and IDN hosts come out as the browser would connect to them. AllowedReferrers
 * and BlockedReferrers both judge this one reading, so a spelling cannot pass one list and dodge
 * the other.
 */

/**
 * The host name, lower case, without port, brackets or a final dot; `undefined` when the header is
 * absent or empty; `''` when a Referer is present but names no host (not an absolute URL, or a
 * scheme without one): such a Referer matches no list entry.
 */
export function referrerHostOf(referer: string | undefined): string | undefined {
  if (referer === undefined) return undefined;
  const text = referer.trim();
  if (text === '') return undefined;
  let host: string;
  try {
    host = new URL(text).hostname;
  } catch {
    return '';
  }
  if (host.startsWith('[')) host = host.slice(1, -1);
  // `example.com.` reaches the same site as `example.com`: one spelling for the lists.
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host;
}
