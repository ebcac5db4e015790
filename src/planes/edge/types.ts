/**
 * What the edge's steps hand each other for one request (pipeline.ts runs them in order). Each
 * value is made by the step that finds it out and only read by the steps after it.
 */
import type { Readable } from 'node:stream';
import type { CachedAnswer } from '../../domain/edge/cache/edge-cache.js';
import type { KeyedRequest } from '../../domain/edge/cache/key.js';
import type { Sharing } from '../../domain/edge/cache/placement.js';
import type { RoutedZone } from '../../domain/edge/routing/routed-zone.js';
import type { Admission, EdgeRequest, OriginReport, RuleEffects } from '../../domain/edge/types.js';

/** route → admit: a request for a pull zone the edge serves. */
export interface Routed {
  readonly request: EdgeRequest;
  /** The client's body, when its method has one (passed on to the origin). */
  readonly clientBody: Readable | undefined;
  readonly routed: RoutedZone;
  /** The hostname's ForceSSL. */
  readonly forceSsl: boolean;
  /** The answer's CDN-RequestId. */
  readonly requestId: string;
  /** performance.now() when the request arrived (the served event's duration). */
  readonly arrived: number;
  /** Sent by another edge instance through the origin shield (signed): its client-facing checks were made there, and the answer goes back as an origin's. */
  readonly shielded: boolean;
}

/** admit → lookup → fetch → deliver: the request as the zone's policy lets it through. */
export interface Admitted extends Routed {
  /** Released once the answer is written or abandoned (a per-client connection limit). */
  readonly admission: Admission;
  readonly effects: RuleEffects;
  /** The path and query the cache key and the origin request use: the request's, or the policy's (a URL token taken out). */
  readonly path: string;
  readonly query: string;
}

/** An answer a step gives instead of passing the request on (Varnish's `return (synth)`): the zone's error page, a redirect, or a page of its own (a challenge, the preloading screen). */
export type Synth =
  | { kind: 'page'; status: number; reason: string }
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'answer'; status: number; headers: Record<string, string | string[]>; body: Buffer };

/** lookup → fetch and deliver: what the cache holds for the request. */
export type Lookup =
  /** Not looked up (a method other than GET and HEAD, no cache, a rule's cache time of 0): passed to the origin, BYPASS. */
  | { kind: 'pass' }
  /** A fresh copy: HIT. */
  | { kind: 'hit'; entry: CachedAnswer }
  /** An expired copy, served while one origin request refreshes it (UseStaleWhileUpdating): UPDATING. */
  | { kind: 'updating'; entry: CachedAnswer; key: string; keyed: KeyedRequest }
  /** No fresh copy under `key` (the plain key or its variant's): fetched; `stale` is the expired copy, if any. */
  | { kind: 'miss'; key: string; keyed: KeyedRequest; stale: CachedAnswer | undefined };

/**
 * deliver: one representation of a cached copy (compression/), as a whole 200 answer sends it:
 * its bytes, its headers made once (`age` first, set per answer) and its entity tag.
 */
export interface Representation {
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly etag: string | undefined;
}

/** What one origin request gave (or a perma-cache, with no report), shared by the requests that waited for it and may take it (placement.ts). */
export type Fill =
  | { kind: 'copy'; entry: CachedAnswer; stored: boolean; sharing: Sharing; report: OriginReport | undefined }
  | { kind: 'stream'; status: number; headers: Record<string, string | string[]>; body: Readable; report: OriginReport | undefined }
  /** 503: the origin shield's concurrency limit refused it (`retryAfter` seconds). */
  | { kind: 'failed'; status: 502 | 503 | 504; message: string; report?: OriginReport | undefined; retryAfter?: number | undefined };

/** fetch → deliver: the request's own origin answer, or the copy another request's fill left for it (coalescing). */
export type Fetched = Fill | { kind: 'shared'; entry: CachedAnswer; stored: boolean };
