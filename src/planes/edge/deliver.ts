/**
 * The deliver step (Varnish's vcl_deliver and vcl_synth): turns what the steps before found — a
 * cached copy, the origin's answer, or a step's own answer (a page, a redirect) — into the Delivery
 * the listener writes. Shapes the answer (browser cache time, the policy's response phase, the
 * diagnostic CDN-* headers), attaches the zone's throttle, and reports the request once it is
 * written (usage, statistics, the access log) and releases its admission. What the client accepts
 * chooses the representation first (compress.ts): a copy's compressed form, made the first time.
 * A request another edge sent through the origin shield gets its answer as an origin's instead
 * (deliver-to-edge.ts).
 */
import type { Readable } from 'node:stream';
import type { CachedAnswer } from '../../domain/edge/cache/edge-cache.js';
import { browserCacheControl } from '../../domain/edge/cache/freshness.js';
import { cachedAtHeader } from '../../domain/edge/diagnostics.js';
import { errorPage } from '../../domain/edge/error-pages.js';
import type { EdgeAnswer, EdgePolicy, OriginReport, ServedEvent } from '../../domain/edge/types.js';
import { VERSION } from '../../version.js';
import type { EdgeCompression } from './compress.js';
import type { Delivery } from './delivery.js';
import { answerToEdge } from './deliver-to-edge.js';
import { answerFromCopy } from './from-cache.js';
import type { Admitted, Fetched, Fill, Representation, Synth } from './types.js';

export interface DeliverDeps {
  policy: EdgePolicy;
  compression: EdgeCompression;
  onServed: (event: ServedEvent) => void;
  logError: (error: unknown) => void;
  now: () => number;
  /** The status widget's script URL with `{code}`, for error pages (EDGEPLANE_STATUS_WIDGET_SCRIPT). */
  statusWidgetScript?: string | undefined;
}

type CacheStatus = EdgeAnswer['cacheStatus'];

const HTML = 'text/html; charset=utf-8';

/**
 * A copy from the cache (HIT, UPDATING, STALE), or one a fill just made (MISS, EXPIRED, BYPASS):
 * answered as the request asks (from-cache.ts), in the representation it accepts, which waits for
 * its compression the first time.
 */
export function deliverCopy(
  deps: DeliverDeps,
  admitted: Admitted,
  entry: CachedAnswer,
  cacheStatus: CacheStatus,
  origin?: OriginReport,
): Delivery | Promise<Delivery> {
  const chosen = deps.compression.forCopy(admitted.request, admitted.effects, entry);
  if (chosen instanceof Promise) return chosen.then((made) => representationDelivery(deps, admitted, entry, cacheStatus, origin, made));
  return representationDelivery(deps, admitted, entry, cacheStatus, origin, chosen);
}

function representationDelivery(
  deps: DeliverDeps,
  admitted: Admitted,
  entry: CachedAnswer,
  cacheStatus: CacheStatus,
  origin: OriginReport | undefined,
  chosen: Representation | undefined,
): Delivery {
  const copy = answerFromCopy(admitted.request, entry, deps.now(), chosen);
  const fromCache = cacheStatus === 'HIT' || cacheStatus === 'STALE' || cacheStatus === 'UPDATING';
  return answer(deps, admitted, copy.status, copy.headers, copy.body, cacheStatus, { origin, cachedAt: fromCache ? cachedAtOf(entry) : undefined });
}

/** A copy's `CDN-CachedAt`, written once per copy (a date formatted per hit was a hit's own largest step). */
const cachedAtTexts = new WeakMap<CachedAnswer, string>();

function cachedAtOf(entry: CachedAnswer): string {
  let text = cachedAtTexts.get(entry);
  if (text === undefined) {
    text = cachedAtHeader(entry.storedAt);
    cachedAtTexts.set(entry, text);
  }
  return text;
}

/**
 * What the fetch step got: the copy a fill made, or the one another request's fill left (coalescing),
 * the origin's answer streamed, or its failure (a 502/504 page). With UseStaleWhileOffline, the
 * stale copy stands in for an origin that failed or answered 5xx.
 */
export function deliverFetched(deps: DeliverDeps, admitted: Admitted, fetched: Fetched, stale: CachedAnswer | undefined): Delivery | Promise<Delivery> {
  if (fetched.kind === 'shared') return deliverCopy(deps, admitted, fetched.entry, fetched.stored ? 'HIT' : 'BYPASS');
  const origin = fetched.report;
  // An origin answering 5xx is as offline as one that cannot be reached.
  if (stale && admitted.routed.zone.UseStaleWhileOffline && fetched.kind !== 'failed' && statusOf(fetched) >= 500) {
    if (fetched.kind === 'stream') fetched.body.resume();
    return deliverCopy(deps, admitted, stale, 'STALE', origin);
  }
  switch (fetched.kind) {
    case 'copy':
      return deliverCopy(deps, admitted, fetched.entry, fetched.stored ? (stale ? 'EXPIRED' : 'MISS') : 'BYPASS', origin);
    case 'stream': {
      const body = deps.compression.forStream(admitted.request, admitted.effects, fetched.status, fetched.headers, fetched.body);
      return answer(deps, admitted, fetched.status, fetched.headers, body, 'BYPASS', { origin });
    }
    case 'failed':
      if (stale && admitted.routed.zone.UseStaleWhileOffline) return deliverCopy(deps, admitted, stale, 'STALE', fetched.report);
      return page(deps, admitted, fetched.status, fetched.message, fetched.report, fetched.retryAfter);
  }
}

/** A step's own answer: the zone's error page, a page of the step's, or a redirect. */
export function deliverSynth(deps: DeliverDeps, admitted: Admitted, synth: Synth): Delivery {
  if (synth.kind === 'page') return page(deps, admitted, synth.status, synth.reason);
  if (synth.kind === 'answer') {
    const headers = { ...synth.headers, 'content-length': String(synth.body.length) };
    return answer(deps, admitted, synth.status, headers, synth.body, 'BYPASS', { own: true });
  }
  return answer(deps, admitted, synth.status, { location: synth.location, 'content-length': '0' }, Buffer.alloc(0), 'BYPASS', { own: true });
}

/**
 * The zone's error page for an answer of the edge's own: a refusal, or the 502/504 for an origin
 * it could not reach or that did not answer in time (an origin's own 5xx passes through as it is),
 * or the origin shield's 503 (with `Retry-After`).
 */
function page(deps: DeliverDeps, admitted: Admitted, status: number, reason: string, origin?: OriginReport, retryAfter?: number): Delivery {
  const { html, policy } = errorPage({ status, reason, requestId: admitted.requestId }, admitted.routed.zone, deps.statusWidgetScript);
  const body = Buffer.from(html);
  const headers: Record<string, string> = { 'content-type': HTML, 'content-length': String(body.length), 'cache-control': 'no-store' };
  if (policy) headers['content-security-policy'] = policy;
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  return answer(deps, admitted, status, headers, body, 'BYPASS', { origin, own: true });
}

/** Shapes the answer (browser cache time, the policy's response phase, diagnostics) and ties up the request's end. */
function answer(
  deps: DeliverDeps,
  admitted: Admitted,
  status: number,
  headers: Record<string, string | string[]>,
  body: Buffer | Readable,
  cacheStatus: CacheStatus,
  extra: { origin?: OriginReport | undefined; cachedAt?: string | undefined; own?: boolean },
): Delivery {
  if (admitted.shielded)
    return answerToEdge(admitted.request, status, headers, body, cacheStatus, reportOnce(deps, admitted, status, cacheStatus, extra.origin));
  const { routed, request, effects } = admitted;
  const zone = routed.zone;
  // The headers are this answer's own (never a cached copy's): Set-Cookie is set aside without copying the rest.
  const cookies = headers['set-cookie'];
  if (cookies !== undefined) delete headers['set-cookie'];
  const textHeaders = headers as Record<string, string>;
  if (!extra.own) {
    const browser = browserCacheControl(zone.CacheControlPublicMaxAgeOverride, undefined);
    if (browser !== undefined && status < 400) textHeaders['cache-control'] = browser;
  }
  const shaped =
    extra.own && status !== 403 ? { status, headers: textHeaders } : deps.policy.onResponse(zone, request, { status, headers: textHeaders }, effects);
  const out: Record<string, string | string[]> = shaped.headers;
  if (cookies !== undefined) out['set-cookie'] = cookies;
  out['server'] = 'edgeplane';
  out['cdn-pullzone'] = String(routed.id);
  out['cdn-uid'] = String(zone.UserId ?? routed.accountId);
  out['cdn-requestid'] = admitted.requestId;
  out['cdn-cache'] = cacheStatus;
  if (extra.cachedAt !== undefined) out['cdn-cachedat'] = extra.cachedAt;
  if (extra.origin) {
    out['cdn-requestpullsuccess'] = extra.origin.answered ? 'True' : 'False';
    if (extra.origin.answered && status !== 502 && status !== 504) out['cdn-requestpullcode'] = String(status);
  }
  out['cdn-status'] = String(shaped.status);
  out['cdn-proxyver'] = VERSION;
  const bodyless = request.method === 'HEAD' || shaped.status === 304 || shaped.status === 204;
  if (bodyless && !Buffer.isBuffer(body)) body.resume();
  return {
    status: shaped.status,
    headers: out,
    body: bodyless ? undefined : body,
    cacheStatus,
    throttle: bodyless ? undefined : deps.policy.throttle(zone, effects),
    done: reportOnce(deps, admitted, shaped.status, cacheStatus, extra.origin),
  };
}

/** The request's end, once: its admission released, and what was served reported (usage, statistics, the access log). */
function reportOnce(
  deps: DeliverDeps,
  admitted: Admitted,
  status: number,
  cacheStatus: CacheStatus,
  origin: OriginReport | undefined,
): (bytesSent: number) => void {
  const { routed } = admitted;
  let ended = false;
  return (bytesSent) => {
    if (ended) return;
    ended = true;
    admitted.admission.release();
    try {
      const event: ServedEvent = {
        zoneId: routed.id,
        accountId: routed.accountId,
        zone: routed.zone,
        request: admitted.request,
        status,
        bytesSent,
        cacheStatus,
        requestId: admitted.requestId,
        durationMs: performance.now() - admitted.arrived,
        at: new Date(),
        ...(origin ? { origin } : {}),
      };
      if (admitted.shielded) event.shielded = true;
      deps.onServed(event);
    } catch (error) {
      deps.logError(error);
    }
  };
}

const statusOf = (fill: Fill & { kind: 'copy' | 'stream' }) => (fill.kind === 'copy' ? fill.entry.status : fill.status);
