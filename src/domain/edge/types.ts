/**
 * The edge plane's contract between its parts: the request as the edge sees it, what the zone's
 * access rules and edge rules decide about it, and what comes back from the cache or the origin.
 * The protocol layer (src/planes/edge/) builds an EdgeRequest from node:http, runs its steps
 * (receive → route → admit → lookup → fetch → deliver, pipeline.ts) through the domain, and writes
 * the answer.
 */
import type { Readable, Transform } from 'node:stream';
import type { PullZoneT } from '../../schemas/pull-zone.js';

/** A pull zone as the edge holds it (its stored document, credentials open). */
export type EdgeZone = PullZoneT;

export interface EdgeRequest {
  method: string;
  /** `https` when it came through the TLS listener. */
  scheme: 'http' | 'https';
  /** The Host header, lower case, without port. */
  host: string;
  /** Path as sent, still percent-encoded, without the query. */
  path: string;
  /** Query string without the leading `?` (empty when none). */
  query: string;
  /** Lower-case header names; repeated values joined with `, `. */
  headers: Record<string, string>;
  /** The client's address (IPv4, or IPv6 without brackets). */
  clientIp: string;
  /** The country of the client: unknown (edgeplane has no location database). */
  countryCode?: undefined;
}

/** What the access rules and edge rules decide before the cache is looked at. */
export type Verdict =
  | { kind: 'continue' }
  /** Answer at once with this status (403 for blocked requests; a rule's SetStatusCode) and the zone's error page. */
  | { kind: 'refuse'; status: number; reason: string }
  /** Redirect (ForceSSL, a Redirect rule, a DNS Redirect record). */
  | { kind: 'redirect'; status: 301 | 302 | 307 | 308; location: string };

/** Changes the edge rules make to how a request is served (those that do not end it). */
export interface RuleEffects {
  /** Headers to set on the request to the origin. */
  requestHeaders: Record<string, string>;
  /** Headers to set on the answer to the client. */
  responseHeaders: Record<string, string>;
  /** OverrideCacheTime: seconds the edge keeps the answer (0 = do not cache). */
  cacheSeconds?: number;
  /** OverrideCacheTimePublic / OverrideBrowserCacheTime: the Cache-Control max-age sent to clients. */
  browserCacheSeconds?: number;
  /** OriginUrl: fetch from this origin instead of the zone's. */
  originUrl?: string;
  /** ForceDownload: `Content-Disposition: attachment`. */
  forceDownload?: boolean;
  /** Disable/EnableTokenAuthentication: overrides the zone's ZoneSecurityEnabled for this request. */
  tokenAuthentication?: boolean;
  /** IgnoreQueryString: the cache key leaves the query out. */
  ignoreQueryString?: boolean;
  /** BypassPermaCache and DisableOptimizer, ForceCompression…: recorded, and applied where edgeplane has the feature. */
  bypassPermaCache?: boolean;
  /** DisableOptimizer: the zone's optimizer leaves this request alone (planes/edge/optimize.ts). */
  disableOptimizer?: boolean;
  /** SetStatusCode on the answer from the origin. */
  statusCode?: number;
  /**
   * The file's path when the policy took a path-embedded URL token out of it
   * (`/bcdn_token=…&expires=…/videos/a.ts` → `/videos/a.ts`): use it, not request.path, for the
   * cache key and the origin request.
   */
  rewrittenPath?: string;
  /** The query without the URL token's parameters (token, expires, token_path…): use it for the cache key and the origin request when set. */
  rewrittenQuery?: string;
  /** StripCookiesClientToOrigin: request headers (lower case) not to forward to the origin. */
  removeRequestHeaders?: string[];
  /** RemoveBrowserCacheResponseHeader: answer headers (lower case) that onResponse removes. */
  removeResponseHeaders?: string[];
  /** SetNetworkRateLimit, or a URL token's signed `limit`: download speed cap in kB/s for this answer (throttle() applies it). */
  rateLimitKBps?: number;
  /** RunEdgeScript: the middleware script that runs around the origin request (instead of the zone's MiddlewareScriptId). */
  edgeScriptId?: number;
  /** OriginStorage: fetch from this storage zone instead of the zone's origin. */
  originStorageZoneId?: number;
  /** Enable/DisableRequestCoalescing: overrides the zone's EnableRequestCoalescing for this request. */
  requestCoalescing?: boolean;
  /** BypassRequestSigning: do not sign the origin request even when the zone's RequestSigningEnabled is on. */
  bypassRequestSigning?: boolean;
  /** ForceCompression: compress the answer for clients that accept it, whatever its content type. */
  forceCompression?: boolean;
  /** Actions of matching rules that edgeplane records but has no feature for (RunEdgeScript, DisableShield…). */
  unappliedActions?: string[];
}

/** An answer ready to deliver: status, headers, and the body as bytes (cached) or a stream (passing through). */
export interface EdgeAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | Readable;
  /** The diagnostic cache status: HIT, MISS, EXPIRED, STALE, BYPASS, UPDATING. */
  cacheStatus: 'HIT' | 'MISS' | 'EXPIRED' | 'STALE' | 'BYPASS' | 'UPDATING';
  /** When the answer was stored in the cache (HIT/STALE). */
  cachedAt?: Date;
}

/** What the edge reports once an answer has been delivered: usage, statistics, the access log. */
export interface ServedEvent {
  zoneId: number;
  accountId: number;
  /** The zone as it was when the request was routed (its logging settings decide the access log). */
  zone: EdgeZone;
  request: EdgeRequest;
  status: number;
  /** Body bytes written to the client (after throttling, ranges and compression). */
  bytesSent: number;
  cacheStatus: EdgeAnswer['cacheStatus'];
  /** The CDN-RequestId header sent with the answer. */
  requestId: string;
  /** From the request's arrival to the last byte written. */
  durationMs: number;
  at: Date;
  /** Present when the origin was asked (a miss, a refresh, a pass-through). */
  origin?: OriginReport;
  /** The request came from another edge instance through the origin shield: only its origin request counts here (the client was counted there). */
  shielded?: boolean;
  /** A WebSocket connection, reported when it closed (status 101; `bytesSent` is what it carried to the client). */
  webSocket?: { bytesFromClient: number };
}

/** What asking the origin took, for the statistics (origin traffic, response time, SafeHop retries). */
export interface OriginReport {
  /** Body bytes received from the origin. */
  bytes: number;
  /** Until the origin's response headers arrived, over every attempt. */
  responseMs: number;
  /** Attempts made (1 = no retry). */
  attempts: number;
  /** Whether the last attempt got an answer (any status) rather than a connect/timeout failure. */
  answered: boolean;
  /** The answer came from the origin shield, which counts its own origin request (not counted again here). */
  viaShield?: boolean;
}

/** A request that the edge lets through for now; `release` once its answer is written (or abandoned). */
export interface Admission {
  release(): void;
}

/**
 * The zone's access settings, token authentication, limits and edge rules (src/domain/edge/policy/).
 * The pipeline asks it twice per request: before the cache, and once the answer is known.
 */
export interface EdgePolicy {
  /**
   * Before anything else for a routed request: the per-IP connection and request limits.
   * A Verdict (429 / 503 refuse) when over a limit, else an Admission to release when done.
   */
  admit(zone: EdgeZone, request: EdgeRequest, now: number): Admission | Verdict;
  /**
   * Access rules, token authentication, request-phase edge rules: whether to serve, and how. With
   * `checkedAtEdge` (a request another edge instance sent through the origin shield, having checked
   * them for its client) the access rules and the URL token are left out: only the edge rules run.
   */
  onRequest(zone: EdgeZone, request: EdgeRequest, now: Date, checkedAtEdge?: boolean): { verdict: Verdict; effects: RuleEffects };
  /**
   * Once the answer's status and headers are known (from cache or origin): response-phase edge
   * rules (ResponseHeader triggers), CORS, the canonical link header. Returns what to send.
   */
  onResponse(
    zone: EdgeZone,
    request: EdgeRequest,
    answer: { status: number; headers: Record<string, string> },
    effects: RuleEffects,
  ): { status: number; headers: Record<string, string> };
  /**
   * How long the edge keeps an origin's answer by the edge rules: the request phase's cache time,
   * else the first response-phase rule's (a ResponseHeader or StatusCode trigger) that sets one;
   * undefined when no rule does (the zone's settings and the origin's headers decide).
   */
  cacheTimeFor(
    zone: EdgeZone,
    request: EdgeRequest,
    answer: { status: number; headers: () => Record<string, string> },
    effects: RuleEffects,
  ): number | undefined;
  /**
   * LimitRatePerSecond / LimitRateAfter: a stream that paces the body to the client, or undefined when unlimited.
   * Pass the request's effects so that a rule's SetNetworkRateLimit or a token's `limit` applies.
   */
  throttle(zone: EdgeZone, effects?: RuleEffects): Transform | undefined;
}

/** HTTP-01 style challenges the edge answers at `/.well-known/acme-challenge/<token>` (src/domain/certificates/). */
export interface HttpChallenges {
  /** The body to answer for this host and path, or undefined when no challenge is published there. */
  answer(host: string, path: string): string | undefined;
}
