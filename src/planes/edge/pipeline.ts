/**
 * The edge's steps for one request, in order, as Varnish names its own (vcl_recv → vcl_hash →
 * vcl_hit / vcl_miss / vcl_pass → vcl_backend_fetch → vcl_deliver). Each is a function in a file
 * of its own, and hands the next a value (types.ts); a step that answers ends the request, the
 * way a VCL subroutine returns `synth`.
 *
 *   receive  receive.ts  the node:http request parsed, its path normalised, its host   → EdgeRequest
 *   route    route.ts    the hostname's zone (or the edge's own 404, 301, challenge)    → Routed
 *                        (and whether another edge sent it through the origin shield)
 *   admit    admit.ts    zone state, ForceSSL, limits, access, edge rules, URL token    → Admitted
 *            optimize.ts (a zone's optimizer: an image's, stylesheet's or script's variant, made
 *                        once from the original, looked up and fetched as below)
 *   lookup   lookup.ts   cache key; hit, updating, miss (with a stale copy), or pass    → Lookup
 *   fetch    fetch.ts    the origin (or the origin shield), coalescing concurrent misses,
 *                        keeping the copy                                              → Fetched
 *            preload.ts  (a page of a zone with a preloading screen: the screen while it loads)
 *   deliver  deliver.ts  the representation (compress.ts), headers, the policy's response
 *                        phase, throttle, usage                                         → Delivery
 *
 * The listener (handler.ts) receives and writes; this file runs the rest. Everything a request
 * needs is in memory once its hostname was seen: a cache hit runs without a promise, a store read
 * or an origin request.
 */
import type { Readable } from 'node:stream';
import type { EdgeCache } from '../../domain/edge/cache/edge-cache.js';
import type { DdosGuard } from '../../domain/edge/ddos/guard.js';
import { DEFAULT_HELD_LIMITS, type HeldLimits } from '../../domain/edge/preloader/held-answers.js';
import { RequestIds } from '../../domain/edge/diagnostics.js';
import type { OriginAddresses } from '../../domain/edge/origin/addresses.js';
import type { ContainerOrigins } from '../../domain/edge/containers/container-origin.js';
import type { PermaCache } from '../../domain/edge/perma-cache/perma-cache.js';
import type { EdgeDirectory } from '../../domain/edge/routing/directory.js';
import { SHIELD_HEADER } from '../../domain/edge/shield/hop-signature.js';
import type { OriginShield } from '../../domain/edge/shield/origin-shield.js';
import type { EdgePolicy, EdgeRequest, HttpChallenges, ServedEvent } from '../../domain/edge/types.js';
import type { FileService } from '../../domain/files/service.js';
import type { ScriptRuntime } from '../../domain/edge/scripts/runtime/script-runtime.js';
import type { Optimizer } from '../../domain/edge/optimizer/optimizer.js';
import { admit } from './admit.js';
import type { EdgeCompression } from './compress.js';
import { type DeliverDeps, deliverCopy, deliverFetched, deliverSynth } from './deliver.js';
import type { Delivery } from './delivery.js';
import { OriginFetches } from './fetch.js';
import { lookUp } from './lookup.js';
import { EdgeOptimizing, type OptimizedEvent } from './optimize.js';
import { Preloading } from './preload.js';
import { route, type Routing } from './route.js';
import type { Admitted, Lookup, Routed } from './types.js';

export interface PipelineDeps {
  directory: EdgeDirectory;
  policy: EdgePolicy;
  files: FileService;
  cache: EdgeCache;
  /** The compressed forms of the cache's copies, and the coding each request gets (compress.ts). */
  compression: EdgeCompression;
  /** Which addresses an HTTP origin may be at. */
  originAddresses?: OriginAddresses | undefined;
  /** The container endpoints' ready replicas (zones in front of one). */
  containerOrigins?: ContainerOrigins | undefined;
  /** The zones' perma-cache (domain/edge/perma-cache/). */
  permaCache: PermaCache;
  /** The edge scripts' runtime: standalone and middleware scripts at the fetch step (ask-script.ts). */
  scripts?: ScriptRuntime | undefined;
  /** The deployment's origin shield: where shielded zones' fills go, and which requests come from another edge through it. */
  shield?: OriginShield | undefined;
  /** The port clients reach the HTTPS listener on, for ForceSSL redirects (443 is left out of the URL). */
  httpsPort: () => number;
  challenges?: HttpChallenges | undefined;
  onServed: (event: ServedEvent) => void;
  logError: (error: unknown) => void;
  /** What freshness is measured against (tests move it; default Date.now). */
  now?: (() => number) | undefined;
  /** The zones' DDoS protection (admit.ts). */
  ddos?: DdosGuard | undefined;
  /** The status widget's script URL with `{code}`, for error pages. */
  statusWidgetScript?: string | undefined;
  /** The bounds of the answers held for the preloading screen's follow-ups (preload.ts). */
  preloading?: Partial<HeldLimits> | undefined;
  /** The zones' optimizer (optimize.ts), and where what it did is reported. */
  optimizer?: { optimizer: Optimizer; onOptimized: (event: OptimizedEvent) => void } | undefined;
}

export class EdgePipeline {
  private readonly ids = new RequestIds();
  private readonly deps: PipelineDeps & DeliverDeps;
  private readonly fetches: OriginFetches;
  private readonly optimizing: EdgeOptimizing | undefined;
  readonly preloading: Preloading;

  constructor(deps: PipelineDeps) {
    this.deps = { ...deps, now: deps.now ?? Date.now };
    this.fetches = new OriginFetches(this.deps);
    const optimizer = deps.optimizer;
    this.optimizing = optimizer && new EdgeOptimizing({ ...this.deps, ...optimizer }, this.fetches);
    this.preloading = new Preloading({ ...DEFAULT_HELD_LIMITS, ...deps.preloading });
  }

  /** Origin requests in flight that others wait for (tests and the bench look). */
  get fillsInFlight(): number {
    return this.fetches.inFlight;
  }

  /** Copies compressed and answers compressed as they streamed (tests and the bench look). */
  get compressions(): Readonly<EdgeCompression['counts']> {
    return this.deps.compression.counts;
  }

  /** What the optimizer did: variants made, originals kept, broken originals, transformations refused a turn (tests and the bench look). */
  get optimizations(): Readonly<Optimizer['counts']> {
    return this.deps.optimizer?.optimizer.counts ?? NO_OPTIMIZER;
  }

  serve(request: EdgeRequest, clientBody: Readable | undefined): Delivery | Promise<Delivery> {
    const arrived = performance.now();
    const routing = route(this.deps.directory, this.deps.challenges, request);
    if (routing instanceof Promise) return routing.then((r) => this.routed(r, request, clientBody, arrived));
    return this.routed(routing, request, clientBody, arrived);
  }

  private routed(routing: Routing, request: EdgeRequest, clientBody: Readable | undefined, arrived: number): Delivery | Promise<Delivery> {
    if (routing.kind === 'answered') return routing.delivery;
    // Sent by another edge through the origin shield, signed: the request as that edge's client made it.
    const fromEdge = request.headers[SHIELD_HEADER] === undefined ? undefined : this.deps.shield?.trusted(routing.zone.id, request, Date.now());
    const routed: Routed = {
      request: fromEdge ?? request,
      clientBody,
      routed: routing.zone,
      forceSsl: routing.forceSsl,
      requestId: this.ids.next(),
      arrived,
      shielded: fromEdge !== undefined,
    };
    const admitting = admit(this.deps, routed);
    if (admitting.kind === 'synth') return deliverSynth(this.deps, admitting.admitted, admitting.synth);
    const { admitted } = admitting;
    try {
      const optimized = this.optimizing?.serve(admitted);
      if (optimized !== undefined) return settled(admitted, optimized);
      const found = lookUp(this.deps.cache, admitted, this.deps.now);
      switch (found.kind) {
        case 'hit':
          return settled(admitted, deliverCopy(this.deps, admitted, found.entry, 'HIT'));
        case 'updating':
          this.fetches.refresh(admitted, found);
          return settled(admitted, deliverCopy(this.deps, admitted, found.entry, 'UPDATING'));
        case 'miss':
          return this.preloaded(admitted, () => releasedOnFailure(admitted, this.fetched(admitted, found)));
        case 'pass':
          return this.preloaded(admitted, () =>
            releasedOnFailure(
              admitted,
              this.fetches.pass(admitted).then((fill) => deliverFetched(this.deps, admitted, fill, undefined)),
            ),
          );
      }
    } catch (error) {
      admitted.admission.release();
      throw error;
    }
  }

  /** What the origin answers, or the preloading screen while it does (PreloadingScreenEnabled; preload.ts). */
  private preloaded(admitted: Admitted, fetch: () => Promise<Delivery>): Promise<Delivery> {
    return admitted.routed.zone.PreloadingScreenEnabled ? this.preloading.serve(this.deps, admitted, fetch) : fetch();
  }

  private async fetched(admitted: Admitted, miss: Lookup & { kind: 'miss' }): Promise<Delivery> {
    return deliverFetched(this.deps, admitted, await this.fetches.miss(admitted, miss), miss.stale);
  }
}

const NO_OPTIMIZER: Optimizer['counts'] = Object.freeze({ made: 0, kept: 0, broken: 0, busy: 0 });

/** A copy's delivery, which waits when its representation is being made: released should that fail, as below. */
const settled = (admitted: Admitted, delivery: Delivery | Promise<Delivery>) =>
  delivery instanceof Promise ? releasedOnFailure(admitted, delivery) : delivery;

/**
 * A fetch that fails (the origin broke off an answer being kept) ends the request in an error the
 * listener answers: the admission goes back then, as delivering would have given it back.
 */
function releasedOnFailure(admitted: Admitted, delivery: Promise<Delivery>): Promise<Delivery> {
  return delivery.catch((error: unknown) => {
    admitted.admission.release();
    throw error;
  });
}
