/**
 * A request header as one string, for every plane that reads node:http's headers. Node already
 * joins a repeated header with commas (or keeps the first, for those that may appear once); only
 * `set-cookie` reaches here as a list, joined the same way.
 */
import type { IncomingHttpHeaders } from 'node:http';

export type RequestHeaders = IncomingHttpHeaders | Record<string, string | string[] | undefined>;

/** The header `name` (lowercase) of a request. */
export const header = (req: { headers: RequestHeaders }, name: string): string | undefined => headerIn(req.headers, name);

/** The same, from the headers alone (the edge's cached conditions, a copy's source conditions). */
export function headerIn(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}
