/**
 * Variable expansion in edge rule values (Redirect target, OriginUrl, Set Request/Response Header
 * values), in the platform's two syntaxes:
 *
 * - `{{path}}` (path and query), `{{hostname}}`, `{{query_string}}`, `{{request_method}}`,
 *   `{{file_name}}`, `{{country_code}}` (always empty: no location database). A `{{path}}` that
 *   follows a `/` does not double it.
 * - `%{Collection.Key}`: `RequestHeaders.<name>`, `Query.<name>`, `Request.Method|Path|QueryString`,
 *   `Path.<i>` / `Path.<i>-<j>` / `Path.<i>-` / `Path.-<j>` (path segments, 0-based; `i-j`
 *   inclusive, `-j` the first j), `Url.FileName|Path|Extension|Directory|Hostname`,
 *   `User.CountryCode` (empty).
 *
 * A variable edgeplane does not know is left as written, so that a typo shows in the result.
 */
import type { EdgeRequest } from '../../types.js';
import { extensionOf, fileNameOf, queryParameterOf } from '../url-parts.js';

export type Template = (request: EdgeRequest) => string;

const VARIABLE = /\{\{\s*([a-z_]+)\s*\}\}|%\{([A-Za-z]+)\.([^}]*)\}/g;

const pathAndQuery = (r: EdgeRequest) => (r.query ? `${r.path}?${r.query}` : r.path);

function basic(name: string, r: EdgeRequest): string | undefined {
  switch (name) {
    case 'path':
      return pathAndQuery(r);
    case 'hostname':
      return r.host;
    case 'query_string':
      return r.query;
    case 'request_method':
      return r.method;
    case 'file_name':
      return fileNameOf(r.path);
    case 'country_code':
      return '';
    default:
      return undefined;
  }
}

function pathSegments(r: EdgeRequest, key: string): string | undefined {
  const segments = r.path.split('/').filter((s) => s.length > 0);
  const range = /^(\d*)-(\d*)$/.exec(key);
  if (/^\d+$/.test(key)) return segments[Number(key)] ?? '';
  if (!range || (range[1] === '' && range[2] === '')) return undefined;
  if (range[1] === '') return segments.slice(0, Number(range[2])).join('/');
  const from = Number(range[1]);
  return segments.slice(from, range[2] === '' ? undefined : Number(range[2]) + 1).join('/');
}

function collection(name: string, key: string, r: EdgeRequest): string | undefined {
  switch (name) {
    case 'RequestHeaders':
      return r.headers[key.toLowerCase()] ?? '';
    case 'Query':
      return queryParameterOf(r.query, key) ?? '';
    case 'Request':
      return key === 'Method' ? r.method : key === 'Path' ? pathAndQuery(r) : key === 'QueryString' ? r.query : undefined;
    case 'Path':
      return pathSegments(r, key);
    case 'Url':
      switch (key) {
        case 'FileName':
          return fileNameOf(r.path);
        case 'Path':
          return pathAndQuery(r);
        case 'Extension':
          return extensionOf(r.path);
        case 'Directory':
          return r.path.slice(0, r.path.lastIndexOf('/') + 1);
        case 'Hostname':
          return r.host;
        default:
          return undefined;
      }
    case 'User':
      return key === 'CountryCode' ? '' : undefined;
    default:
      return undefined;
  }
}

export function compileTemplate(text: string): Template {
  if (!text.includes('{{') && !text.includes('%{')) return () => text;
  return (request) => {
    let out = '';
    let last = 0;
    for (const m of text.matchAll(VARIABLE)) {
      out += text.slice(last, m.index);
      last = m.index + m[0].length;
      let value = m[1] !== undefined ? basic(m[1], request) : collection(m[2]!, m[3]!, request);
      if (value === undefined) value = m[0];
      else if (m[1] === 'path' && out.endsWith('/') && value.startsWith('/')) value = value.slice(1);
      out += value;
    }
    return out + text.slice(last);
  };
}
