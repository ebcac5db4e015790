/**
 * Answer headers a file keeps beside its bytes and sends back whenever it is read: what an S3 write
 * gave (`Cache-Control`, `Content-Encoding` …), or what an origin answered when the edge kept the
 * file in a perma-cache. They live in the file's metadata under `system:<name>`: user metadata
 * names are HTTP header names, which never hold a colon, so the two never meet.
 */

export const SYSTEM_PREFIX = 'system:';

/** Headers S3 keeps with an object and sends back as they were given. */
export const STORED_HEADERS = ['cache-control', 'content-disposition', 'content-encoding', 'content-language', 'expires'] as const;

/** The headers kept in a file's metadata, by their lower-case names. */
export function keptHeadersOf(metadata: Readonly<Record<string, string>> | null): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in metadata) if (name.startsWith(SYSTEM_PREFIX)) headers[name.slice(SYSTEM_PREFIX.length)] = metadata[name]!;
  return headers;
}
