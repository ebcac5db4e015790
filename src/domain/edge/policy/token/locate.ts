/**
 * Where a URL token travels. Two forms, as the platform's signing libraries write them:
 *   query form:  /img/cat.jpg?token=…&token_path=%2Fimg%2F&expires=1900000000
 *   path form:   /bcdn_token=…&token_path=%2Fimg%2F&expires=1900000000/img/cat.jpg
 * The path form (a directory token, for players that build segment URLs relative to a playlist)
 * embeds the token and its parameters as the first path segment; the file's real path follows.
 */
import type { EdgeRequest } from '../../types.js';

/** The first path segment that carries a path-form token (the parameter name the platform's signers write). */
const PATH_TOKEN_PREFIX = '/bcdn_token=';

/** Query parameters that belong to the token rather than to the file; they never reach the cache key or the origin. */
export const TOKEN_PARAMETERS: ReadonlySet<string> = new Set([
  'token',
  'expires',
  'token_path',
  'token_countries',
  'token_countries_blocked',
  'token_ignore_params',
  'limit',
]);

export interface LocatedToken {
  token: string;
  /** The `expires` parameter as sent (checked by the verifier). */
  expires: string;
  /** Every other parameter of the token, decoded, in the order sent. */
  parameters: [string, string][];
  /** The file's path: the request path, without the token segment in the path form. */
  path: string;
  /** `path` when the token sits in the first path segment, `query` when it is in the query string. */
  form: 'path' | 'query';
}

/** `a=1&token=x&b=2` without the named parameters, other pairs left exactly as sent. */
export function queryWithout(query: string, names: ReadonlySet<string>): string {
  if (!query) return '';
  return query
    .split('&')
    .filter((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape cannot name a token parameter: keep the pair.
      }
      return pair.length > 0 && !names.has(decoded);
    })
    .join('&');
}

export function locateToken(request: EdgeRequest): LocatedToken | undefined {
  if (request.path.startsWith(PATH_TOKEN_PREFIX)) {
    const end = request.path.indexOf('/', 1);
    const segment = request.path.slice(1, end < 0 ? undefined : end);
    return tokenIn(segment, 'bcdn_token', end < 0 ? '/' : request.path.slice(end), 'path');
  }
  if (!request.query.includes('token=')) return undefined;
  return tokenIn(request.query, 'token', request.path, 'query');
}

/** The token named `name` and its parameters in `parameters` (a query string, or the path form's first segment). */
function tokenIn(parameters: string, name: string, path: string, form: LocatedToken['form']): LocatedToken | undefined {
  const entries = [...new URLSearchParams(parameters)];
  const token = entries.find(([k]) => k === name)?.[1];
  const expires = entries.find(([k]) => k === 'expires')?.[1];
  if (!token || expires === undefined) return undefined;
  return { token, expires, parameters: entries.filter(([k]) => k !== name && k !== 'expires'), path, form };
}
