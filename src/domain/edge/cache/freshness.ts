/**
 * How long the edge keeps an answer from the origin, and what browsers are told.
 *
 * The edge is a shared cache (RFC 9111), under the zone's overrides:
 * - an edge rule's OverrideCacheTime wins, then the zone's `CacheControlMaxAgeOverride` (any value
 *   below 0 follows the origin; 0 never caches; N caches for N seconds whatever the origin says);
 * - following the origin: `no-store`, `private` and `no-cache` are not stored (a `no-cache` answer
 *   would need a revalidation per request, which is a pass-through with extra steps); `s-maxage`,
 *   then `max-age`, then `Expires` give the lifetime, less the answer's `Age`; with none of them, an
 *   answer with `Last-Modified` is kept a tenth of its age, at most a day (RFC 9111 §4.2.2), and
 *   any other is not kept;
 * - partial answers (206) are never stored; error answers (400 and up) only with
 *   `CacheErrorResponses`, and then for 10 seconds when the origin gives no lifetime;
 * - an answer that sets a cookie is stored only when the zone's `DisableCookies` strips the cookie:
 *   otherwise one visitor's session would be handed to the next;
 * - an answer to a request with `Authorization` (that the key does not tell apart, key.ts) is stored
 *   only when the origin allows a shared cache to keep it: `public`, `s-maxage` or
 *   `must-revalidate` (RFC 9111 §3.5). The zone's and the rules' cache times set how long an answer
 *   is kept, not whose it is: they do not lift this.
 * An answer not stored for being one client's own (`personal`: credentialed, `private`, `no-store`,
 * a cookie) is not handed to other requests that waited for the same origin request either.
 */

export interface CacheDirectives {
  noStore: boolean;
  private: boolean;
  noCache: boolean;
  public: boolean;
  mustRevalidate: boolean;
  maxAge?: number;
  sMaxAge?: number;
}

/** A lifetime for error answers the origin gives none for, when the zone caches errors. */
export const ERROR_TTL_SECONDS = 10;
/** The heuristic lifetime (a tenth of the time since Last-Modified) never exceeds a day. */
const HEURISTIC_MAX_SECONDS = 86_400;

export function parseCacheControl(value: string | undefined): CacheDirectives {
  const out: CacheDirectives = { noStore: false, private: false, noCache: false, public: false, mustRevalidate: false };
  if (!value) return out;
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    const arg =
      eq < 0
        ? undefined
        : part
            .slice(eq + 1)
            .trim()
            .replace(/^"|"$/g, '');
    switch (name) {
      case 'no-store':
        out.noStore = true;
        break;
      case 'private':
        out.private = true;
        break;
      case 'no-cache':
        out.noCache = true;
        break;
      case 'public':
        out.public = true;
        break;
      case 'must-revalidate':
        out.mustRevalidate = true;
        break;
      case 'max-age':
        out.maxAge = seconds(arg);
        break;
      case 's-maxage':
        out.sMaxAge = seconds(arg);
        break;
    }
  }
  return out;
}

function seconds(arg: string | undefined): number | undefined {
  if (arg === undefined || !/^\d+$/.test(arg)) return undefined;
  return Number(arg);
}

export interface LifetimeRules {
  /** The zone's CacheControlMaxAgeOverride. */
  maxAgeOverride: number;
  /** An edge rule's OverrideCacheTime for this request. */
  ruleSeconds?: number | undefined;
  cacheErrors: boolean;
  disableCookies: boolean;
  /** The request carries credentials the cache key does not tell apart (KeyedRequest.credentialed). */
  credentialed: boolean;
}

export interface OriginAnswerHead {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[] | undefined>;
}

/** `personal`: the answer is its requester's own, for no other client (see above). */
export type StoreDecision = { store: true; seconds: number } | { store: false; reason: string; personal?: boolean };

/** A header's first value (node:http gives `set-cookie` and repeated unknown headers as arrays). */
export const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Whether, and for how long, the edge keeps this answer to a GET. */
export function edgeLifetime(answer: OriginAnswerHead, rules: LifetimeRules, now: number): StoreDecision {
  const { status, headers } = answer;
  const cc = parseCacheControl(first(headers['cache-control']));
  const setsCookie = headers['set-cookie'] !== undefined && !rules.disableCookies;
  const unshared = rules.credentialed && !cc.public && cc.sMaxAge === undefined && !cc.mustRevalidate;
  const personal = setsCookie || unshared || cc.private || cc.noStore;
  const no = (reason: string): StoreDecision => (personal ? { store: false, reason, personal } : { store: false, reason });
  if (status === 206) return no('partial answer');
  const isError = status >= 400;
  if (isError && !rules.cacheErrors) return no('error answer (CacheErrorResponses is off)');
  if (setsCookie) return no('the answer sets a cookie');
  if (unshared) return no('an answer to a request with Authorization the origin does not mark shareable');
  const forced = rules.ruleSeconds ?? (rules.maxAgeOverride >= 0 ? rules.maxAgeOverride : undefined);
  if (forced !== undefined) return forced > 0 ? { store: true, seconds: forced } : no('the zone caches nothing');

  if (cc.noStore || cc.private || cc.noCache) return no('Cache-Control forbids a shared cache');
  const age = Number(first(headers['age']) ?? 0) || 0;
  let lifetime = cc.sMaxAge ?? cc.maxAge;
  if (lifetime === undefined) lifetime = expiresLifetime(headers, now);
  if (lifetime !== undefined) {
    const left = lifetime - age;
    return left > 0 ? { store: true, seconds: left } : no('already stale');
  }
  const heuristic = heuristicLifetime(headers, now);
  if (heuristic !== undefined && !isError) return { store: true, seconds: heuristic };
  if (isError) return { store: true, seconds: ERROR_TTL_SECONDS };
  return no('no freshness information');
}

function expiresLifetime(headers: OriginAnswerHead['headers'], now: number): number | undefined {
  const expires = first(headers['expires']);
  if (expires === undefined) return undefined;
  const at = Date.parse(expires);
  // An invalid Expires (often "0") means "already expired".
  if (Number.isNaN(at)) return 0;
  const date = Date.parse(first(headers['date']) ?? '');
  return Math.floor((at - (Number.isNaN(date) ? now : date)) / 1000);
}

function heuristicLifetime(headers: OriginAnswerHead['headers'], now: number): number | undefined {
  const modified = Date.parse(first(headers['last-modified']) ?? '');
  if (Number.isNaN(modified)) return undefined;
  const date = Date.parse(first(headers['date']) ?? '');
  const seconds = Math.floor(((Number.isNaN(date) ? now : date) - modified) / 10_000);
  return seconds > 0 ? Math.min(seconds, HEURISTIC_MAX_SECONDS) : undefined;
}

/**
 * The Cache-Control browsers get: an edge rule's OverrideBrowserCacheTime, else the zone's
 * `CacheControlPublicMaxAgeOverride` when 0 or more (0: `no-cache`), else the origin's own header
 * (undefined: leave it as the origin sent it).
 */
export function browserCacheControl(zonePublicOverride: number, ruleSeconds: number | undefined): string | undefined {
  const seconds = ruleSeconds ?? (zonePublicOverride >= 0 ? zonePublicOverride : undefined);
  if (seconds === undefined) return undefined;
  return seconds > 0 ? `public, max-age=${seconds}` : 'no-cache';
}
