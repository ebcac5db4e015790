/**
 * The one spelling of a request's path that every phase of the edge works on: routing, the access
 * settings and edge rules, the URL token, the cache key and the origin request. It is made once, as
 * the request arrives, so that the path a token check judges is exactly the path the origin is
 * asked for (an origin that resolved `..` or read `\` as `/` after the check could otherwise serve
 * a file outside a directory token's reach).
 *
 * As browsers read an http URL (the WHATWG URL standard) and as CDNs normalise one before their
 * rules (Cloudflare's URL normalisation does the same steps):
 * - `\` is a `/`;
 * - `%2E` is a `.` (an escaped unreserved character is that character, RFC 3986 §6.2.2.2);
 * - runs of `/` are one `/`;
 * - `.` and `..` segments are resolved (RFC 3986 §5.2.4; a `..` at the root stays there).
 * Other escapes are left as sent (a signed URL's path keeps its signature).
 *
 * Refused (undefined, answered 400): a segment that holds an escaped separator (`%2F`, `%5C`) next
 * to a `.` or `..` part, such as `..%2F` or `%2e%2e%5c`: an origin that decodes before it resolves
 * would climb out of where the edge believed the request to be.
 */

/** What may need work: a backslash, an escape, a doubled slash, a segment starting with a dot. */
const UNUSUAL = /[\\%]|\/[/.]/;
const ESCAPED_DOT = /%2e/gi;
const ESCAPED_SEPARATOR = /%2f|%5c/i;

/** The path every phase uses, or undefined when it must be refused. `path` starts with `/`. */
export function normalisedPath(path: string): string | undefined {
  if (!UNUSUAL.test(path)) return path;
  const raw = path.replace(/\\/g, '/').replace(ESCAPED_DOT, '.');
  const segments = raw.split('/');
  const kept: string[] = [];
  // The first element is the empty text before the leading `/`.
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (segment === '..') kept.pop();
    else if (segment !== '.' && segment !== '') {
      if (ESCAPED_SEPARATOR.test(segment) && climbs(segment)) return undefined;
      kept.push(segment);
      continue;
    }
    // A path ending in `/`, `/.` or `/..` names a directory: it keeps its trailing slash.
    if (last) kept.push('');
  }
  return `/${kept.join('/')}`;
}

/** A segment whose parts between escaped separators include `.` or `..`. */
function climbs(segment: string): boolean {
  return segment.split(/%2f|%5c/i).some((part) => part === '.' || part === '..');
}
