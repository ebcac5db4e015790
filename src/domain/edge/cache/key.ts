/**
 * The cache key: which requests share one cached answer. A key belongs to one zone and one of its
 * cache versions (so `purgeCache`, which moves the version, leaves every old key unreachable), then
 * the path, the query as the zone's settings shape it, and what the answer may differ by:
 * - the query: left out with `IgnoreQueryStrings` (or an edge rule's IgnoreQueryString), reduced to
 *   `QueryStringVaryParameters` when that list is not empty, sorted with `EnableQueryStringOrdering`;
 * - `EnableHostnameVary`: the hostname asked for (otherwise every hostname of the zone shares);
 * - `EnableWebPVary` / `EnableAvifVary`: whether the client accepts WebP / AVIF, for image paths
 *   only (jpg, jpeg, png, gif, webp, avif), where an origin would switch formats;
 * - `EnableMobileVary`: mobile or desktop, from the User-Agent;
 * - `EnableCookieVary`: the values of the cookies named in `CookieVaryParameters`;
 * - `CacheKeyHeaders`: the values of those request headers;
 * Country vary settings are not enforced: edgeplane has no location database.
 * The content codings the client accepts are not in the key: the edge asks the origin for the
 * identity representation on every cache fill (origin/headers.ts) and compresses it itself
 * (compression/), so one copy serves every client.
 *
 * Beyond the zone's settings, the key follows RFC 9111 where they are silent:
 * - a request with `Authorization` is marked `credentialed` unless `CacheKeyHeaders` names that
 *   header: its answer is kept only when the origin marks it shareable (freshness.ts);
 * - the origin's `Vary` (§4.1): the headers it names that the key already covers (the codings,
 *   which every fill asks the same; `CacheKeyHeaders`; `Cookie` with `EnableCookieVary`, `User-Agent` with `EnableMobileVary`,
 *   `Accept` on images with `EnableWebPVary`/`EnableAvifVary`, `Host` with `EnableHostnameVary`:
 *   the zone's settings say how those split the cache) change nothing; for the others each variant
 *   is kept under the key plus their values as the request sent them (variantKeyOf), up to
 *   MAX_VARY_HEADERS headers and MAX_VARIANT_CHARS of values; `Vary: *`, more headers, or longer
 *   values: the answer is not kept.
 */
import type { EdgeRequest, EdgeZone, RuleEffects } from '../types.js';

export interface KeyRules {
  ignoreQuery: boolean;
  ordered: boolean;
  /** Only these parameters (by name) count, when set. */
  varyParams: ReadonlySet<string> | undefined;
  hostname: boolean;
  webp: boolean;
  avif: boolean;
  mobile: boolean;
  cookies: readonly string[];
  headers: readonly string[];
}

export function keyRulesOf(zone: EdgeZone): KeyRules {
  const params = (zone.QueryStringVaryParameters ?? []).map((p) => p.trim()).filter((p) => p.length > 0);
  return {
    ignoreQuery: zone.IgnoreQueryStrings,
    ordered: zone.EnableQueryStringOrdering,
    varyParams: params.length > 0 ? new Set(params) : undefined,
    hostname: zone.EnableHostnameVary,
    webp: zone.EnableWebPVary,
    avif: zone.EnableAvifVary,
    mobile: zone.EnableMobileVary,
    cookies: zone.EnableCookieVary ? (zone.CookieVaryParameters ?? []).map((c) => c.trim()).filter((c) => c.length > 0) : [],
    headers: (zone.CacheKeyHeaders ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h.length > 0),
  };
}

const IMAGE_PATH = /\.(jpe?g|png|gif|webp|avif)$/i;
const MOBILE_AGENT = /mobi|android|iphone|ipad|ipod|blackberry|opera mini|iemobile/i;

export interface KeyedRequest {
  key: string;
  /** The query as it counts for the key (what a purge pattern with `?` is matched against). */
  query: string;
  /**
   * The request carries credentials (`Authorization`) the key does not tell apart: its answer is
   * kept only when the origin allows a shared cache to (RFC 9111 §3.5), and it is not shared with
   * other requests waiting for the same key.
   */
  credentialed: boolean;
}

export function cacheKeyOf(zoneId: number, cacheVersion: number, rules: KeyRules, request: EdgeRequest, effects: RuleEffects): KeyedRequest {
  const query = rules.ignoreQuery || effects.ignoreQueryString ? '' : shapeQuery(request.query, rules);
  let key = `${zoneId}:${cacheVersion}|${request.path}`;
  if (query !== '') key += `?${query}`;
  if (rules.hostname) key += `|h=${request.host}`;
  if ((rules.webp || rules.avif) && IMAGE_PATH.test(request.path)) {
    const accept = request.headers['accept'] ?? '';
    if (rules.webp) key += accept.includes('image/webp') ? '|webp' : '|-';
    if (rules.avif) key += accept.includes('image/avif') ? '|avif' : '|-';
  }
  if (rules.mobile) key += MOBILE_AGENT.test(request.headers['user-agent'] ?? '') ? '|m' : '|d';
  if (rules.cookies.length > 0) {
    const jar = cookies(request.headers['cookie']);
    for (const name of rules.cookies) key += `|c:${name}=${jar.get(name) ?? ''}`;
  }
  for (const name of rules.headers) key += `|${name}:${request.headers[name] ?? ''}`;
  const credentialed = request.headers['authorization'] !== undefined && !rules.headers.includes('authorization');
  return { key, query, credentialed };
}

/** More request headers than this named by an origin's Vary (beyond those the key covers): the answer is not kept. */
export const MAX_VARY_HEADERS = 4;
/** The varied headers' values of one variant, as its key holds them, at most this long; longer: not kept. */
export const MAX_VARIANT_CHARS = 4096;

/** What an origin's Vary asks of the key: nothing more, these request headers' values, or not to keep the answer. */
export type VaryRule = { kind: 'none' } | { kind: 'headers'; names: readonly string[] } | { kind: 'refuse'; reason: string };

const VARY_NONE: VaryRule = Object.freeze({ kind: 'none' });

/** The request headers (lower case, sorted) an answer's `Vary` names that the key does not already cover. */
export function varyRuleOf(vary: string | string[] | undefined, rules: KeyRules, path: string): VaryRule {
  if (vary === undefined) return VARY_NONE;
  const names = new Set<string>();
  for (const part of (Array.isArray(vary) ? vary.join(',') : vary).split(',')) {
    const name = part.trim().toLowerCase();
    if (name === '') continue;
    if (name === '*') return { kind: 'refuse', reason: 'the origin varies by everything (Vary: *)' };
    if (!coveredByKey(name, rules, path)) names.add(name);
  }
  if (names.size === 0) return VARY_NONE;
  if (names.size > MAX_VARY_HEADERS) return { kind: 'refuse', reason: `the origin varies by more than ${MAX_VARY_HEADERS} request headers` };
  return { kind: 'headers', names: [...names].sort() };
}

function coveredByKey(name: string, rules: KeyRules, path: string): boolean {
  switch (name) {
    case 'accept-encoding':
      return true;
    case 'cookie':
      return rules.cookies.length > 0;
    case 'user-agent':
      return rules.mobile;
    case 'accept':
      return (rules.webp || rules.avif) && IMAGE_PATH.test(path);
    case 'host':
      return rules.hostname;
    default:
      return rules.headers.includes(name);
  }
}

/**
 * The key of one variant: the key, then each varied header's value as the request sent it (an
 * absent header as empty), quoted so that no value can pass for another's; undefined when the
 * values are longer than MAX_VARIANT_CHARS (such an answer is not kept).
 */
export function variantKeyOf(key: string, names: readonly string[], request: EdgeRequest): string | undefined {
  let part = '';
  for (const name of names) part += `|v:${name}=${JSON.stringify(name === 'host' ? request.host : (request.headers[name] ?? ''))}`;
  return part.length > MAX_VARIANT_CHARS ? undefined : key + part;
}

/** Whether the client's User-Agent reads as a mobile device (also told to the origin). */
export const isMobileAgent = (userAgent: string | undefined) => MOBILE_AGENT.test(userAgent ?? '');

/** The query as the cache key keeps it (what a purge URL's query is compared with). */
export function shapeQuery(query: string, rules: KeyRules): string {
  if (query === '') return '';
  if (!rules.varyParams && !rules.ordered) return query;
  let pairs = query.split('&').filter((p) => p.length > 0);
  if (rules.varyParams) {
    const keep = rules.varyParams;
    pairs = pairs.filter((pair) => keep.has(paramName(pair)));
  }
  if (rules.ordered) pairs.sort();
  return pairs.join('&');
}

function paramName(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = eq < 0 ? pair : pair.slice(0, eq);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function cookies(header: string | undefined): Map<string, string> {
  const jar = new Map<string, string>();
  if (!header) return jar;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) jar.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return jar;
}
