/**
 * The headers of a request to the origin, and of the origin's answer as the edge passes it on.
 *
 * To the origin go the client's headers, less the hop-by-hop ones (and the origin shield's proof,
 * shield/hop-signature.ts), with:
 * - `Host`: the client's hostname with `AddHostHeader`, else `OriginHostHeader` when set, else the
 *   origin URL's host (an HTTPS origin also gets it as the TLS server name);
 * - `X-Real-IP` and `X-Forwarded-For` (the client's address alone: one sent by the client is
 *   dropped, so an origin can trust it), `X-Forwarded-Proto`, `Via`;
 * - `CDN-PullZoneId`, `CDN-RequestId` (the id the client sees in its answer), and, with
 *   `EnableMobileVary`, `CDN-MobileDevice` (`mobile` or `desktop`, the edge's reading of the
 *   User-Agent, which is also part of the cache key);
 * - the edge rules' SetRequestHeader headers last; then what a rule strips (the Cookie header) removed.
 * A request that will fill the cache goes without the client's conditions and range, and asks for
 * `Accept-Encoding: identity`: the edge fetches the whole answer once, answers conditions and
 * ranges itself, and compresses for each client (compression/).
 *
 * Headers a client could use to change what the origin answers without changing the cache key
 * (cache poisoning: one client's crafted answer kept and served to everyone after) are not passed
 * on, unless `CacheKeyHeaders` names them (then each value has its own copy): the proxy headers
 * that only the edge may set (`Forwarded`, every `X-Forwarded-*` the edge does not set itself,
 * `X-Host`, `X-Original-Host`, `X-Forwarded-Server`), the rewrite headers some frameworks obey
 * (`X-Original-URL`, `X-Rewrite-URL`), client-address claims (`True-Client-IP`, `X-Client-IP`,
 * `X-Cluster-Client-IP`, as `X-Forwarded-For`), and, on GET and HEAD, the method overrides
 * (`X-HTTP-Method-Override`, `X-HTTP-Method`, `X-Method-Override`). An edge rule's
 * SetRequestHeader can still set any of them.
 */
import { isMobileAgent } from '../cache/key.js';
import { SHIELD_HEADER } from '../shield/hop-signature.js';
import type { EdgeRequest, EdgeZone, RuleEffects } from '../types.js';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'x-forwarded-for',
  'x-real-ip',
  'x-forwarded-proto',
  'via',
  'expect',
  SHIELD_HEADER,
]);
const CONDITIONS = new Set(['range', 'if-range', 'if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since']);
/** Besides every `x-forwarded-*`: what would change the origin's answer while the key stays the same. */
const UNKEYED = new Set(['forwarded', 'x-host', 'x-original-host', 'x-original-url', 'x-rewrite-url', 'true-client-ip', 'x-client-ip', 'x-cluster-client-ip']);
const METHOD_OVERRIDES = new Set(['x-http-method-override', 'x-http-method', 'x-method-override']);

export interface OriginRequestContext {
  /** Host of the origin URL (with its port when not the default). */
  originHost: string;
  requestId: string;
  /** The request fills the cache: conditions and range are the edge's to answer. */
  fillsCache: boolean;
}

export function originRequestHeaders(zone: EdgeZone, request: EdgeRequest, effects: RuleEffects, context: OriginRequestContext): Record<string, string> {
  const listed = connectionTokens(request.headers['connection']);
  const bodiless = request.method === 'GET' || request.method === 'HEAD';
  const out: Record<string, string> = {};
  for (const name in request.headers) {
    if (HOP_BY_HOP.has(name) || listed.has(name) || (context.fillsCache && CONDITIONS.has(name))) continue;
    if ((UNKEYED.has(name) || name.startsWith('x-forwarded-') || (bodiless && METHOD_OVERRIDES.has(name))) && !keyedBy(zone, name)) continue;
    const value = request.headers[name];
    if (value !== undefined) out[name] = value;
  }
  out['host'] = zone.AddHostHeader ? request.host : zone.OriginHostHeader || context.originHost;
  out['x-real-ip'] = request.clientIp;
  out['x-forwarded-for'] = request.clientIp;
  out['x-forwarded-proto'] = request.scheme;
  out['via'] = '1.1 edgeplane';
  out['cdn-pullzoneid'] = String(zone.Id);
  out['cdn-requestid'] = context.requestId;
  if (context.fillsCache) out['accept-encoding'] = 'identity';
  if (zone.EnableMobileVary) out['cdn-mobiledevice'] = isMobileAgent(request.headers['user-agent']) ? 'mobile' : 'desktop';
  for (const [name, value] of Object.entries(effects.requestHeaders)) out[name.toLowerCase()] = value;
  for (const name of effects.removeRequestHeaders ?? []) delete out[name];
  return out;
}

/** Whether the zone's CacheKeyHeaders names the header (asked only for the rare headers above). */
function keyedBy(zone: EdgeZone, name: string): boolean {
  return (zone.CacheKeyHeaders ?? '').split(',').some((h) => h.trim().toLowerCase() === name);
}

/** The connection's own headers (RFC 9110 §7.6.1), never passed on by a proxy; with those its `Connection` lists. */
export const CONNECTION_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The origin's answer headers as the edge passes them on: hop-by-hop ones dropped, cookies with `DisableCookies`. */
export function passedAnswerHeaders(headers: Record<string, string | string[] | undefined>, disableCookies: boolean): Record<string, string | string[]> {
  const listed = connectionTokens(headers['connection']);
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || CONNECTION_HEADERS.has(name) || listed.has(name)) continue;
    if (name === 'set-cookie' && disableCookies) continue;
    out[name] = value;
  }
  return out;
}

export function connectionTokens(value: string | string[] | undefined): Set<string> {
  if (value === undefined) return new Set();
  const text = Array.isArray(value) ? value.join(',') : value;
  return new Set(
    text
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter((t) => t.length > 0),
  );
}
