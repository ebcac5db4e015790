/**
 * The edge plane's contract between its parts: the request as the edge sees it, what the zone's
 * access rules and edge rules decide about it, and what comes back from the cache or the origin.
 * The protocol layer (src/planes/edge/) builds an EdgeRequest from node:http, runs the phases
 * (route → access → rules → cache → origin → deliver) through the domain, and writes the answer.
 */
import type { Readable } from 'node:stream';
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
  /** SetStatusCode on the answer from the origin. */
  statusCode?: number;
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
