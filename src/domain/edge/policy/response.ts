/**
 * What the policy changes on an answer before it goes to the client, in this order:
 * the rules' status (SetStatusCode), removed headers (RemoveBrowserCacheResponseHeader), the
 * browser cache time (`Cache-Control: public, max-age=N`), ForceDownload
 * (`Content-Disposition: attachment`), the rules' headers, then the zone's settings:
 *
 * - CORS (EnableAccessControlOriginHeader): `Access-Control-Allow-Origin: *` on answers whose
 *   path extension is in AccessControlOriginHeaderExtensions (compared without dot and letter
 *   case), unless the answer already carries the header (an origin that names its own allowed
 *   origin keeps it). `*` rather than the request's Origin: the setting has no list of origins to
 *   check against, and a value that does not vary per requester stays correct in the cache.
 * - AddCanonicalHeader: `Link: <https://host/path>; rel="canonical"` (https, the requested host,
 *   the file's path without the query), added to a Link the origin sent.
 */
import type { PullZoneT } from '../../../schemas/pull-zone.js';
import type { EdgeRequest, RuleEffects } from '../types.js';
import { extensionOf } from './url-parts.js';

export type Answer = { status: number; headers: Record<string, string> };

/** The zone's response settings, compiled once per zone; undefined fields are off. */
export interface ResponseSettings {
  corsExtensions: ReadonlySet<string> | undefined;
  canonical: boolean;
}

export function compileResponseSettings(zone: PullZoneT): ResponseSettings {
  const extensions = (zone.AccessControlOriginHeaderExtensions ?? [])
    .map((e) =>
      e
        .trim()
        .replace(/^\*?\./, '')
        .toLowerCase(),
    )
    .filter((e) => e);
  return {
    corsExtensions: zone.EnableAccessControlOriginHeader && extensions.length > 0 ? new Set(extensions) : undefined,
    canonical: zone.AddCanonicalHeader,
  };
}

/** True when the effects change something on an answer. */
export function touchesAnswer(effects: RuleEffects): boolean {
  if (effects.statusCode !== undefined || effects.browserCacheSeconds !== undefined || effects.forceDownload) return true;
  if (effects.removeResponseHeaders && effects.removeResponseHeaders.length > 0) return true;
  return Object.keys(effects.responseHeaders).length > 0;
}

/** Sets a header, replacing one of the same name whatever its letter case. */
function put(headers: Record<string, string>, lowerName: string, value: string): void {
  for (const name of Object.keys(headers)) if (name !== lowerName && name.toLowerCase() === lowerName) delete headers[name];
  headers[lowerName] = value;
}

function find(headers: Record<string, string>, lowerName: string): string | undefined {
  if (headers[lowerName] !== undefined) return headers[lowerName];
  for (const name in headers) if (name.toLowerCase() === lowerName) return headers[name];
  return undefined;
}

export function shapeAnswer(settings: ResponseSettings, request: EdgeRequest, answer: Answer, effects: RuleEffects): Answer {
  const path = effects.rewrittenPath ?? request.path;
  const cors = settings.corsExtensions?.has(extensionOf(path)) ?? false;
  if (!cors && !settings.canonical && !touchesAnswer(effects)) return answer;

  // Object.assign, not spread: properties added to a spread clone are slow in V8 (see planes/edge/from-cache.ts).
  const headers = Object.assign({}, answer.headers);
  for (const name of effects.removeResponseHeaders ?? []) {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === name) delete headers[key];
  }
  if (effects.browserCacheSeconds !== undefined) put(headers, 'cache-control', `public, max-age=${effects.browserCacheSeconds}`);
  if (effects.forceDownload) put(headers, 'content-disposition', 'attachment');
  for (const [name, value] of Object.entries(effects.responseHeaders)) put(headers, name, value);
  if (cors && find(headers, 'access-control-allow-origin') === undefined) headers['access-control-allow-origin'] = '*';
  if (settings.canonical) {
    const canonical = `<https://${request.host}${path}>; rel="canonical"`;
    const existing = find(headers, 'link');
    put(headers, 'link', existing ? `${existing}, ${canonical}` : canonical);
  }
  return { status: effects.statusCode ?? answer.status, headers };
}
