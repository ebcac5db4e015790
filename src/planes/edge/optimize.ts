/**
 * The optimizer's step (domain/edge/optimizer/), between admit and lookup for a zone with the
 * optimizer on and a file it optimizes (an image, a stylesheet, a script): the request's variant
 * is looked up under its own key (the original's key and the plan's descriptor: the parameters,
 * the device's max width and quality, the format the client accepts). A fresh variant is a hit
 * like any other copy. Otherwise the variant is made once, while concurrent requests for it wait
 * for the same making, from the original: looked up and fetched as a request without the
 * optimizer's parameters would be (so it is kept as its own copy, fetched once for every variant,
 * and concurrent variants of one original wait for one fetch). The variant is kept as long as the
 * original is fresh, with the original's path and query, so a purge of the URL drops every
 * variant with it.
 *
 * What is not optimized passes on as it came: an original the edge does not keep (a pass, an
 * answer too big for the cache or not to be kept), one not of its type, a broken one (its bytes
 * as they are, kept as the variant so it is read once), one marked `Cache-Control: no-transform`,
 * one the origin varies by request headers (`Vary` beyond the key), a request with credentials.
 */
import { createHash } from 'node:crypto';
import type { CachedAnswer, EdgeCache } from '../../domain/edge/cache/edge-cache.js';
import { cacheKeyOf } from '../../domain/edge/cache/key.js';
import { sharedWith } from '../../domain/edge/cache/placement.js';
import { varyWith } from '../../domain/edge/compression/representation-headers.js';
import type { Optimized, Optimizer } from '../../domain/edge/optimizer/optimizer.js';
import { OptimizationPlans } from '../../domain/edge/optimizer/plan.js';
import type { OptimizationPlan } from '../../domain/edge/optimizer/types.js';
import type { OriginReport } from '../../domain/edge/types.js';
import { type DeliverDeps, deliverCopy, deliverFetched, deliverSynth } from './deliver.js';
import type { Delivery } from './delivery.js';
import type { OriginFetches } from './fetch.js';
import { lookUp } from './lookup.js';
import type { Admitted, Fetched, Lookup } from './types.js';

type Doable = Exclude<OptimizationPlan, { kind: 'refused' }>;

/** What making a variant came to: the variant (or the original kept as it), or the original's fetch as it was (not to be optimized). */
type Making =
  | { kind: 'copy'; entry: CachedAnswer; stored: boolean; origin: OriginReport | undefined }
  | { kind: 'fetched'; fetched: Fetched; stale: CachedAnswer | undefined };

/** What an optimization did, for the zone's statistics and charges. */
export interface OptimizedEvent {
  zoneId: number;
  kind: 'image' | 'minify';
  originalBytes: number;
  bytes: number;
  ms: number;
}

export interface OptimizeDeps extends DeliverDeps {
  cache: EdgeCache;
  optimizer: Optimizer;
  onOptimized: (event: OptimizedEvent) => void;
}

export class EdgeOptimizing {
  /** Variants being made, by key: concurrent requests for one wait for the same. */
  private readonly making = new Map<string, Promise<Making>>();
  /** Originals being fetched for a variant, by their key: concurrent variants of one wait for the same fetch. */
  private readonly originals = new Map<string, Promise<Fetched>>();
  private readonly plans = new OptimizationPlans();

  constructor(
    private readonly deps: OptimizeDeps,
    private readonly fetches: OriginFetches,
  ) {}

  /** The request's answer when the optimizer handles it; undefined: the pipeline's usual lookup. */
  serve(admitted: Admitted): Delivery | Promise<Delivery> | undefined {
    const { request, routed, effects } = admitted;
    if (!routed.zone.OptimizerEnabled || admitted.shielded || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
    if (this.deps.cache.maxBytes === 0 || effects.cacheSeconds === 0 || effects.disableOptimizer === true) return undefined;
    const plan = this.plans.of(routed.zone, request, admitted.path, admitted.query);
    if (plan === undefined) return undefined;
    if (plan.kind === 'refused') return deliverSynth(this.deps, admitted, { kind: 'page', status: 400, reason: plan.reason });
    const original: Admitted = plan.originQuery === admitted.query ? admitted : { ...admitted, query: plan.originQuery };
    const keyed = cacheKeyOf(routed.id, routed.zone.CacheVersion, routed.keyRules, { ...request, path: original.path, query: original.query }, effects);
    if (keyed.credentialed) return undefined;
    const key = `${keyed.key}|opt:${plan.descriptor}`;
    let entry = this.deps.cache.get(key);
    if (entry && routed.purges.covers(entry)) {
      this.deps.cache.delete(key);
      entry = undefined;
    }
    if (entry && entry.expiresAt > this.deps.now()) return deliverCopy(this.deps, admitted, entry, 'HIT');
    return this.made(admitted, original, plan, key);
  }

  private async made(admitted: Admitted, original: Admitted, plan: Doable, key: string): Promise<Delivery> {
    let making = this.making.get(key);
    const waited = making !== undefined;
    if (making === undefined) {
      making = this.make(admitted, original, plan, key);
      this.making.set(key, making);
      const done = () => this.making.delete(key);
      making.then(done, done);
    }
    const made = await making;
    if (made.kind === 'copy')
      return deliverCopy(this.deps, admitted, made.entry, waited ? 'HIT' : made.stored ? 'MISS' : 'BYPASS', waited ? undefined : made.origin);
    // The original's own answer (a stream, a failure) cannot be shared: a request that waited asks for it itself.
    if (waited) return deliverFetched(this.deps, admitted, await this.originOf(original), undefined);
    return deliverFetched(this.deps, admitted, made.fetched, made.stale);
  }

  private async make(admitted: Admitted, original: Admitted, plan: Doable, key: string): Promise<Making> {
    const found = lookUp(this.deps.cache, original, this.deps.now);
    let entry: CachedAnswer;
    let stored = true;
    let origin: OriginReport | undefined;
    switch (found.kind) {
      case 'hit':
        entry = found.entry;
        break;
      case 'updating':
        this.fetches.refresh(original, found);
        entry = found.entry;
        break;
      case 'pass':
        return { kind: 'fetched', fetched: await this.fetches.pass(original), stale: undefined };
      case 'miss': {
        const fetched = await this.originOf(original, found);
        if (fetched.kind !== 'copy' && fetched.kind !== 'shared') return { kind: 'fetched', fetched, stale: found.stale };
        entry = fetched.entry;
        stored = fetched.stored;
        origin = fetched.kind === 'copy' ? fetched.report : undefined;
        break;
      }
    }
    // An original the origin varies by request headers the variant's key leaves out is this request's own: answered as it is, never shared.
    if (entry.variantOf !== undefined) return { kind: 'fetched', fetched: { kind: 'shared', entry, stored }, stale: undefined };
    if (entry.status !== 200 || noTransform(entry)) return { kind: 'copy', entry, stored, origin };
    const contentType = typeof entry.headers['content-type'] === 'string' ? entry.headers['content-type'] : undefined;
    const optimized = await this.deps.optimizer.optimize(admitted.routed.zone, plan, entry.body, contentType);
    if (optimized.kind === 'original' && (optimized.why === 'busy' || optimized.why === 'not-its-type')) return { kind: 'copy', entry, stored, origin };
    const variant = variantOf(entry, optimized, plan, admitted, this.deps.now());
    if (optimized.kind === 'made') {
      this.deps.onOptimized({ zoneId: entry.zoneId, kind: plan.kind, originalBytes: entry.body.length, bytes: optimized.body.length, ms: optimized.ms });
    }
    const kept = stored && entry.expiresAt > variant.storedAt && this.deps.cache.set(key, variant);
    return { kind: 'copy', entry: variant, stored: kept, origin };
  }

  /** The original, fetched once for the variants that want it at the same time (each variant's own making waits for it). */
  private originOf(original: Admitted, miss?: Lookup & { kind: 'miss' }): Promise<Fetched> {
    const found = miss ?? lookUp(this.deps.cache, original, this.deps.now);
    if (found.kind === 'hit' || found.kind === 'updating') return Promise.resolve({ kind: 'shared', entry: found.entry, stored: true });
    if (found.kind === 'pass') return this.fetches.pass(original);
    const running = this.originals.get(found.key);
    if (running) {
      return running.then((fill) =>
        fill.kind === 'copy' && sharedWith(fill.sharing, found.keyed.key, original.request)
          ? { kind: 'shared', entry: fill.entry, stored: fill.stored }
          : this.fetches.miss(original, found),
      );
    }
    const fetching = this.fetches.miss(original, found);
    this.originals.set(found.key, fetching);
    const done = () => this.originals.delete(found.key);
    fetching.then(done, done);
    return fetching;
  }
}

/** The variant's copy: the original's headers and lifetime, its own bytes, type and entity tag, and the request's path and query (what a purge is matched against). */
function variantOf(entry: CachedAnswer, optimized: Optimized, plan: Doable, admitted: Admitted, now: number): CachedAnswer {
  const body = optimized.kind === 'made' ? optimized.body : entry.body;
  const headers: Record<string, string | string[]> = { ...entry.headers };
  if (optimized.kind === 'made') {
    headers['content-type'] = optimized.contentType;
    headers['etag'] = `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;
    for (const name of OF_THE_BYTES) delete headers[name];
  }
  if (plan.variesByAccept) headers['vary'] = varyWith(headers['vary'], 'Accept');
  const { routed, request } = admitted;
  const asked = { ...request, path: admitted.path, query: admitted.query };
  const keyed = cacheKeyOf(routed.id, routed.zone.CacheVersion, routed.keyRules, asked, admitted.effects);
  return {
    zoneId: entry.zoneId,
    status: entry.status,
    headers,
    body,
    storedAt: now,
    expiresAt: entry.expiresAt,
    etag: typeof headers['etag'] === 'string' ? headers['etag'] : undefined,
    lastModified: entry.lastModified,
    purgeSeq: entry.purgeSeq,
    path: admitted.path,
    query: keyed.query,
  };
}

/** Headers that describe the original's bytes, left off a variant. */
const OF_THE_BYTES = ['content-length', 'content-md5', 'content-digest', 'repr-digest', 'digest'];

/** The origin asked that its answer reach clients as it is (RFC 9111 §5.2.2.6). */
function noTransform(entry: CachedAnswer): boolean {
  const control = entry.headers['cache-control'];
  return control !== undefined && String(control).toLowerCase().includes('no-transform');
}
