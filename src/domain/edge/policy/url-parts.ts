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

/** The host name a Referer header names, lower case, without port or credentials; undefined when it names none. */
export function referrerHostOf(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  let rest = referer.trim();
  const scheme = rest.indexOf('://');
  if (scheme >= 0) rest = rest.slice(scheme + 3);
  const end = rest.search(/[/?#]/);
  let authority = end < 0 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  if (at >= 0) authority = authority.slice(at + 1);
  const host = authority.startsWith('[') ? authority.slice(1, authority.indexOf(']')) : authority.replace(/:\d*$/, '');
  return host ? host.toLowerCase() : undefined;
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
