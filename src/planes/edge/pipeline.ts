/**
 * The edge's phases for one request: route → limits → access and edge rules → cache → origin →
 * answer. Everything the request needs is in memory once its hostname was seen: a cache hit
 * runs without a promise, a store read or an origin request.
 *
 * - Route: the hostname's zone (directory.ts). Unknown → 404 page; a DNS `Redirect` record → 301;
 *   a disabled or suspended zone → 403 page; a ForceSSL hostname over HTTP → 301 to https.
 * - Policy: the zone's limits, access settings, token and edge rules (src/domain/edge/policy/)
 *   refuse, redirect, or shape how the request is served (RuleEffects).
 * - Cache: GET and HEAD are looked up by their key (cache/key.ts), then by their variant's key when
 *   the origin varies that key's answers (`Vary`). Fresh → HIT. Expired → fetched again (EXPIRED),
 *   or served while one refresh runs (`UseStaleWhileUpdating`: UPDATING), or served when the origin
 *   fails (`UseStaleWhileOffline`: STALE). Absent → MISS. With `EnableRequestCoalescing`,
 *   concurrent misses of one key wait for one origin request, and take its answer when it is theirs
 *   too: not one client's own (freshness.ts), and of their variant. A request with credentials
 *   the key does not tell apart neither waits for others nor is waited for.
 * - Other methods, and answers the cache may not keep (freshness.ts), pass through: BYPASS.
 */
import { PassThrough, Readable } from 'node:stream';
import type { CachedAnswer, EdgeCache } from '../../domain/edge/cache/edge-cache.js';
import { browserCacheControl, edgeLifetime } from '../../domain/edge/cache/freshness.js';
import { cacheKeyOf, type KeyedRequest, variantKeyOf } from '../../domain/edge/cache/key.js';
import { placementOf, type Sharing, sharedWith } from '../../domain/edge/cache/placement.js';
import { cachedAtHeader, RequestIds } from '../../domain/edge/diagnostics.js';
import { errorPage } from '../../domain/edge/error-pages.js';
import type { OriginAddresses } from '../../domain/edge/origin/addresses.js';
import { passedAnswerHeaders } from '../../domain/edge/origin/headers.js';
import type { EdgeDirectory, Route } from '../../domain/edge/routing/directory.js';
import type { RoutedZone } from '../../domain/edge/routing/routed-zone.js';
import type {
  Admission,
  EdgeAnswer,
  EdgePolicy,
  EdgeRequest,
  HttpChallenges,
  OriginReport,
  RuleEffects,
  ServedEvent,
  Verdict,
} from '../../domain/edge/types.js';
import type { FileService } from '../../domain/files/service.js';
import { VERSION } from '../../version.js';
import { askOrigin, type OriginOutcome } from './ask-origin.js';
import { plainDelivery, type Delivery } from './delivery.js';
import { answerFromCopy } from './from-cache.js';

export interface PipelineDeps {
  directory: EdgeDirectory;
  policy: EdgePolicy;
  files: FileService;
  cache: EdgeCache;
  /** Which addresses an HTTP origin may be at. */
  originAddresses?: OriginAddresses | undefined;
  /** The port clients reach the HTTPS listener on, for ForceSSL redirects (443 is left out of the URL). */
  httpsPort: () => number;
  challenges?: HttpChallenges | undefined;
  onServed: (event: ServedEvent) => void;
  logError: (error: unknown) => void;
  /** What freshness is measured against (tests move it; default Date.now). */
  now?: (() => number) | undefined;
}

/** Per request: what the phases found out so far. */
interface Flow {
  request: EdgeRequest;
  clientBody: Readable | undefined;
  requestId: string;
  arrived: number;
  routed: RoutedZone;
  effects: RuleEffects;
  admission: Admission;
  path: string;
  query: string;
}

/** What one origin request for a key gave, shared by the requests that waited for it and may take it (placement.ts). */
type Fill =
  | { kind: 'copy'; entry: CachedAnswer; stored: boolean; sharing: Sharing; report: OriginReport }
  | { kind: 'stream'; status: number; headers: Record<string, string | string[]>; body: Readable; report: OriginReport }
  | { kind: 'failed'; status: 502 | 504; message: string; report?: OriginReport | undefined };

const ACME_PREFIX = '/.well-known/acme-challenge/';
const HTML = 'text/html; charset=utf-8';
const NO_EFFECTS: RuleEffects = Object.freeze({ requestHeaders: {}, responseHeaders: {} }) as RuleEffects;
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export class EdgePipeline {
  private readonly ids = new RequestIds();
  private readonly fills = new Map<string, Promise<Fill>>();
  private readonly now: () => number;

  constructor(private readonly deps: PipelineDeps) {
    this.now = deps.now ?? Date.now;
    const { directory, cache } = deps;
    directory.onReload.push((id, before, after) => {
      if (!after) cache.dropZone(id);
      else if (before && before.zone.CacheVersion !== after.zone.CacheVersion) cache.dropZone(id);
      else if (before && before.purges.seq !== after.purges.seq) cache.dropZone(id, (entry) => after.purges.covers(entry));
    });
    directory.onForgetAll.push(() => cache.clear());
  }

  /** Origin requests in flight that others wait for (tests and the bench look). */
  get fillsInFlight(): number {
    return this.fills.size;
  }

  serve(request: EdgeRequest, clientBody: Readable | undefined): Delivery | Promise<Delivery> {
    const arrived = performance.now();
    const challenge = this.deps.challenges && request.path.startsWith(ACME_PREFIX) ? this.deps.challenges.answer(request.host, request.path) : undefined;
    if (challenge !== undefined) {
      // A zone that issues its own certificates (DisableBuiltInCertificateIssuance) has its origin answer them.
      const answer = (route: Route | undefined) =>
        route?.kind === 'zone' && route.zone.zone.DisableBuiltInCertificateIssuance
          ? this.routed(route, request, clientBody, arrived)
          : plainDelivery(200, { 'content-type': 'text/plain', server: 'edgeplane' }, challenge);
      const route = this.deps.directory.route(request.host);
      return route instanceof Promise ? route.then(answer) : answer(route);
    }
    const route = this.deps.directory.route(request.host);
    if (route instanceof Promise) return route.then((r) => this.routed(r, request, clientBody, arrived));
    return this.routed(route, request, clientBody, arrived);
  }

  private routed(route: Route | undefined, request: EdgeRequest, clientBody: Readable | undefined, arrived: number): Delivery | Promise<Delivery> {
    if (route === undefined) {
      return plainDelivery(
        404,
        { 'content-type': HTML, server: 'edgeplane' },
        errorPage(404, 'Not Found', `No pull zone serves the hostname ${request.host}.`, undefined),
      );
    }
    if (route.kind === 'redirect') return plainDelivery(301, { location: route.location, server: 'edgeplane' }, '');
    const routed = route.zone;
    const zone = routed.zone;
    // One Flow per request, filled in as the phases learn more (a cache hit is this path at every request).
    const flow: Flow = {
      request,
      clientBody,
      requestId: this.ids.next(),
      arrived,
      routed,
      effects: NO_EFFECTS,
      admission: NO_ADMISSION,
      path: request.path,
      query: request.query,
    };
    if (!zone.Enabled || zone.Suspended) {
      const why = zone.Suspended ? 'The pull zone is suspended.' : 'The pull zone is disabled.';
      return this.page(flow, 403, why);
    }
    if (route.forceSsl && request.scheme === 'http') return this.redirect(flow, 301, this.httpsUrl(request));

    const admitted = this.deps.policy.admit(zone, request, Date.now());
    if (isVerdict(admitted) && admitted.kind !== 'continue') return this.verdict(flow, admitted);
    if (!isVerdict(admitted)) flow.admission = admitted;
    const { verdict, effects } = this.deps.policy.onRequest(zone, request, new Date());
    flow.effects = effects;
    if (effects.rewrittenPath !== undefined) flow.path = effects.rewrittenPath;
    if (effects.rewrittenQuery !== undefined) flow.query = effects.rewrittenQuery;
    if (verdict.kind !== 'continue') return this.verdict(flow, verdict);
    try {
      return this.cached(flow);
    } catch (error) {
      flow.admission.release();
      throw error;
    }
  }

  private cached(flow: Flow): Delivery | Promise<Delivery> {
    const { request, routed, effects } = flow;
    const method = request.method;
    if ((method !== 'GET' && method !== 'HEAD') || this.deps.cache.maxBytes === 0 || effects.cacheSeconds === 0) return this.passThrough(flow);
    const asKeyed = flow.path === request.path && flow.query === request.query ? request : { ...request, path: flow.path, query: flow.query };
    const keyed = cacheKeyOf(routed.id, routed.zone.CacheVersion, routed.keyRules, asKeyed, effects);
    const now = this.now();
    const cache = this.deps.cache;
    // The key looked up: the plain one, or the variant's when the origin varies the plain key's answers.
    let key = keyed.key;
    let entry = cache.get(key);
    if (entry === undefined) {
      const names = cache.variesBy(key);
      const variant = names && variantKeyOf(key, names, request);
      if (variant) {
        key = variant;
        entry = cache.get(key);
      }
    }
    if (entry && routed.purges.covers(entry)) {
      cache.delete(key);
      entry = undefined;
    }
    if (entry && entry.expiresAt > now) return this.fromCopy(flow, entry, 'HIT');
    if (entry && routed.zone.UseStaleWhileUpdating) {
      if (!this.fills.has(key)) {
        const refresh = keyed.credentialed ? this.fill(flow, keyed, false) : this.fillOnce(flow, key, keyed);
        void refresh.then(drop, this.deps.logError);
      }
      return this.fromCopy(flow, entry, 'UPDATING');
    }
    return this.miss(flow, key, keyed, entry);
  }

  private async miss(flow: Flow, key: string, keyed: KeyedRequest, stale: CachedAnswer | undefined): Promise<Delivery> {
    const coalesce = !keyed.credentialed && (flow.effects.requestCoalescing ?? flow.routed.zone.EnableRequestCoalescing);
    const running = coalesce ? this.fills.get(key) : undefined;
    if (running) {
      const shared = await waitAtMost(running, flow.routed.zone.RequestCoalescingTimeout);
      // A copy is what the waiters share when it is theirs too; an answer too big to buffer is fetched again by each.
      if (shared?.kind === 'copy' && sharedWith(shared.sharing, keyed.key, flow.request)) {
        return this.fromCopy(flow, shared.entry, shared.stored ? 'HIT' : 'BYPASS');
      }
      if (shared?.kind === 'failed') return this.failed(flow, shared, stale);
      return this.deliverFill(flow, await this.fill(flow, keyed, false), stale);
    }
    const fill = coalesce ? this.fillOnce(flow, key, keyed) : this.fill(flow, keyed, false);
    return this.deliverFill(flow, await fill, stale);
  }

  /** One origin request for the key looked up, which concurrent misses wait for (the answer is buffered for them all). */
  private fillOnce(flow: Flow, key: string, keyed: KeyedRequest): Promise<Fill> {
    const promise = this.fill(flow, keyed, true);
    this.fills.set(key, promise);
    const done = () => {
      if (this.fills.get(key) === promise) this.fills.delete(key);
    };
    promise.then(done, done);
    return promise;
  }

  /** Asks the origin and keeps the answer when it may be kept: under the plain key, or its variant's (`Vary`). */
  private async fill(flow: Flow, keyed: KeyedRequest, shared: boolean): Promise<Fill> {
    const { routed, effects } = flow;
    const zone = routed.zone;
    const purgeSeq = routed.purges.seq;
    const outcome: OriginOutcome = await askOrigin(this.deps.files, { ...flow, fillsCache: true, originAddresses: this.deps.originAddresses });
    if (!outcome.ok) return { kind: 'failed', status: outcome.status, message: outcome.message, report: outcome.report };
    const now = this.now();
    const ruleSeconds = this.deps.policy.cacheTimeFor(zone, flow.request, { status: outcome.status, headers: () => textOf(outcome.headers) }, effects);
    const decision = edgeLifetime(
      { status: outcome.status, headers: outcome.headers },
      {
        maxAgeOverride: zone.CacheControlMaxAgeOverride,
        ruleSeconds,
        cacheErrors: zone.CacheErrorResponses,
        disableCookies: zone.DisableCookies,
        credentialed: keyed.credentialed,
      },
      now,
    );
    const { store, key, variantOf, sharing } = placementOf(decision, outcome.headers['vary'], routed.keyRules, keyed, flow.request, flow.path);
    const headers = passedAnswerHeaders(outcome.headers, zone.DisableCookies);
    const declared = Number(headers['content-length'] ?? Number.NaN);
    const limit = this.deps.cache.maxEntryBytes;
    if ((!store && (!shared || sharing.kind === 'none')) || declared > limit) return this.streamed(outcome, headers);
    const buffered = await bufferUpTo(outcome.body, limit);
    if (buffered.rest) return { kind: 'stream', status: outcome.status, headers, body: buffered.rest, report: outcome.report };
    delete headers['content-length'];
    const lastModified = Date.parse(String(headers['last-modified'] ?? ''));
    const entry: CachedAnswer = {
      zoneId: routed.id,
      status: outcome.status,
      headers,
      body: buffered.bytes,
      storedAt: now,
      expiresAt: store && decision.store ? now + decision.seconds * 1000 : now,
      etag: typeof headers['etag'] === 'string' ? headers['etag'] : undefined,
      lastModified: Number.isNaN(lastModified) ? undefined : new Date(lastModified),
      purgeSeq,
      path: flow.path,
      query: keyed.query,
      variantOf,
    };
    const stored = store && this.deps.cache.set(key, entry);
    return { kind: 'copy', entry, stored, sharing, report: outcome.report };
  }

  private streamed(outcome: OriginOutcome & { ok: true }, headers: Record<string, string | string[]>): Fill {
    const body = Buffer.isBuffer(outcome.body) ? bytesStream(outcome.body) : outcome.body;
    return { kind: 'stream', status: outcome.status, headers, body, report: outcome.report };
  }

  private deliverFill(flow: Flow, fill: Fill, stale: CachedAnswer | undefined): Delivery {
    const origin = fill.report;
    // An origin answering 5xx is as offline as one that cannot be reached.
    if (stale && flow.routed.zone.UseStaleWhileOffline && fill.kind !== 'failed' && statusOf(fill) >= 500) {
      if (fill.kind === 'stream') fill.body.resume();
      return this.fromCopy(flow, stale, 'STALE', origin);
    }
    switch (fill.kind) {
      case 'copy':
        return this.fromCopy(flow, fill.entry, fill.stored ? (stale ? 'EXPIRED' : 'MISS') : 'BYPASS', origin);
      case 'stream':
        return this.answer(flow, fill.status, fill.headers, fill.body, 'BYPASS', { origin });
      case 'failed':
        return this.failed(flow, fill, stale);
    }
  }

  private failed(flow: Flow, fill: Fill & { kind: 'failed' }, stale: CachedAnswer | undefined): Delivery {
    if (stale && flow.routed.zone.UseStaleWhileOffline) return this.fromCopy(flow, stale, 'STALE', fill.report);
    return this.page(flow, fill.status, fill.message, fill.report);
  }

  private async passThrough(flow: Flow): Promise<Delivery> {
    const outcome = await askOrigin(this.deps.files, { ...flow, fillsCache: false, originAddresses: this.deps.originAddresses });
    if (!outcome.ok) return this.page(flow, outcome.status, outcome.message, outcome.report);
    const headers = passedAnswerHeaders(outcome.headers, flow.routed.zone.DisableCookies);
    const body = Buffer.isBuffer(outcome.body) ? bytesStream(outcome.body) : outcome.body;
    return this.answer(flow, outcome.status, headers, body, 'BYPASS', { origin: outcome.report });
  }

  private fromCopy(flow: Flow, entry: CachedAnswer, cacheStatus: EdgeAnswer['cacheStatus'], origin?: OriginReport): Delivery {
    const copy = answerFromCopy(flow.request, entry, this.now());
    const fromCache = cacheStatus === 'HIT' || cacheStatus === 'STALE' || cacheStatus === 'UPDATING';
    return this.answer(flow, copy.status, copy.headers, copy.body, cacheStatus, { origin, cachedAt: fromCache ? entry.storedAt : undefined });
  }

  private verdict(flow: Flow, verdict: Exclude<Verdict, { kind: 'continue' }>): Delivery {
    if (verdict.kind === 'redirect') return this.redirect(flow, verdict.status, verdict.location);
    return this.page(flow, verdict.status, refusalText(verdict.status, verdict.reason));
  }

  private redirect(flow: Flow, status: number, location: string): Delivery {
    return this.answer(flow, status, { location, 'content-length': '0' }, Buffer.alloc(0), 'BYPASS', { own: true });
  }

  private page(flow: Flow, status: number, reason: string, origin?: OriginReport): Delivery {
    const body = Buffer.from(errorPage(status, STATUS_TEXT[status] ?? 'Error', reason, flow.routed.zone));
    return this.answer(flow, status, { 'content-type': HTML, 'content-length': String(body.length), 'cache-control': 'no-store' }, body, 'BYPASS', {
      origin,
      own: true,
    });
  }

  /** Shapes the answer (browser cache time, the policy's response phase, diagnostics) and ties up the request's end. */
  private answer(
    flow: Flow,
    status: number,
    headers: Record<string, string | string[]>,
    body: Buffer | Readable,
    cacheStatus: EdgeAnswer['cacheStatus'],
    extra: { origin?: OriginReport | undefined; cachedAt?: number | undefined; own?: boolean },
  ): Delivery {
    const { routed, request, effects } = flow;
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
      extra.own && status !== 403 ? { status, headers: textHeaders } : this.deps.policy.onResponse(zone, request, { status, headers: textHeaders }, effects);
    const out: Record<string, string | string[]> = shaped.headers;
    if (cookies !== undefined) out['set-cookie'] = cookies;
    out['server'] = 'edgeplane';
    out['cdn-pullzone'] = String(routed.id);
    out['cdn-uid'] = String(zone.UserId ?? routed.accountId);
    out['cdn-requestid'] = flow.requestId;
    out['cdn-cache'] = cacheStatus;
    if (extra.cachedAt !== undefined) out['cdn-cachedat'] = cachedAtHeader(extra.cachedAt);
    if (extra.origin) {
      out['cdn-requestpullsuccess'] = extra.origin.answered ? 'True' : 'False';
      if (extra.origin.answered && status !== 502 && status !== 504) out['cdn-requestpullcode'] = String(status);
    }
    out['cdn-status'] = String(shaped.status);
    out['cdn-proxyver'] = VERSION;
    const bodyless = request.method === 'HEAD' || shaped.status === 304 || shaped.status === 204;
    if (bodyless && !Buffer.isBuffer(body)) body.resume();
    let ended = false;
    return {
      status: shaped.status,
      headers: out,
      body: bodyless ? undefined : body,
      cacheStatus,
      throttle: bodyless ? undefined : this.deps.policy.throttle(zone, effects),
      done: (bytesSent) => {
        if (ended) return;
        ended = true;
        flow.admission.release();
        try {
          this.deps.onServed({
            zoneId: routed.id,
            accountId: routed.accountId,
            zone,
            request,
            status: shaped.status,
            bytesSent,
            cacheStatus,
            requestId: flow.requestId,
            durationMs: performance.now() - flow.arrived,
            at: new Date(),
            ...(extra.origin ? { origin: extra.origin } : {}),
          });
        } catch (error) {
          this.deps.logError(error);
        }
      },
    };
  }

  private httpsUrl(request: EdgeRequest): string {
    const port = this.deps.httpsPort();
    const authority = port === 443 ? request.host : `${request.host.includes(':') ? `[${request.host}]` : request.host}:${port}`;
    return `https://${authority}${request.path}${request.query === '' ? '' : `?${request.query}`}`;
  }
}

const NO_ADMISSION: Admission = Object.freeze({ release: () => undefined });

const isVerdict = (value: Admission | Verdict): value is Verdict => (value as Verdict).kind !== undefined;

const statusOf = (fill: Fill & { kind: 'copy' | 'stream' }) => (fill.kind === 'copy' ? fill.entry.status : fill.status);

const drop = (fill: Fill) => {
  if (fill.kind === 'stream') fill.body.resume();
};

function refusalText(status: number, reason: string): string {
  if (status === 429 || status === 503) return 'Too many requests from your address; try again shortly.';
  return `The request was refused (${reason}).`;
}

async function waitAtMost<T>(promise: Promise<T>, seconds: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), (seconds > 0 ? seconds : 30) * 1000);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a body whole when it fits in `limit`; else what was read so far followed by the rest, as one stream. */
function bufferUpTo(body: Buffer | Readable, limit: number): Promise<{ bytes: Buffer; rest?: undefined } | { bytes?: undefined; rest: Readable }> {
  if (Buffer.isBuffer(body)) return Promise.resolve(body.length <= limit ? { bytes: body } : { rest: bytesStream(body) });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= limit) return;
      body.off('data', onData).off('end', onEnd).off('error', reject);
      body.pause();
      const rest = new PassThrough();
      for (const c of chunks) rest.write(c);
      body.pipe(rest);
      resolve({ rest });
    };
    const onEnd = () => resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    body.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

const bytesStream = (bytes: Buffer): Readable => Readable.from([bytes]);

/** An origin's headers as rules read them: a repeated header (only Set-Cookie, from node:http) joined. */
function textOf(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
