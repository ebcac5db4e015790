/** Small readings of a request's URL and headers that several rules share. */
import type { EdgeRequest } from '../types.js';

/** The last path segment (`cat.jpg` of `/img/cat.jpg`); empty for a directory. */
export function fileNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The file extension without its dot, lower case (`jpg`); empty when the file name has none. */
export function extensionOf(path: string): string {
  const name = fileNameOf(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The URL the platform compares `Url` triggers with: scheme, host and path, no query. */
export function fullUrlOf(request: EdgeRequest): string {
  return `${request.scheme}://${request.host}${request.path}`;
}

/** The value of one cookie of the request; undefined when it is not sent. */
export function cookieOf(request: EdgeRequest, name: string): string | undefined {
  const header = request.headers['cookie'];
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/** The first value of one query parameter, decoded; undefined when it is not in the query. */
export function queryParameterOf(query: string, name: string): string | undefined {
  if (!query) return undefined;
  const value = new URLSearchParams(query).get(name);
  return value ?? undefined;
}
