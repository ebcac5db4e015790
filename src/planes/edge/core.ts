/**
 * The parts the edge's listeners share in one process: the directory of hostnames and zones, the
 * cache (its copies dropped as zones change), the policy's per-client counters and the pipeline.
 * The HTTP and HTTPS listeners serve from the same ones, so a purge or a hit counts once whichever
 * way a request came.
 */
import { EdgeCache } from '../../domain/edge/cache/edge-cache.js';
import { PermaCache } from '../../domain/edge/perma-cache/perma-cache.js';
import { DdosGuard } from '../../domain/edge/ddos/guard.js';
import { DEFAULT_DDOS_SETTINGS, type DdosSettings } from '../../domain/edge/ddos/thresholds.js';
import type { HeldLimits } from '../../domain/edge/preloader/held-answers.js';
import { createEdgePolicy } from '../../domain/edge/policy/index.js';
import { EdgeDirectory } from '../../domain/edge/routing/directory.js';
import type { OriginAddresses } from '../../domain/edge/origin/addresses.js';
import type { OriginShield } from '../../domain/edge/shield/origin-shield.js';
import type { HttpChallenges } from '../../domain/edge/types.js';
import type { Services } from '../../domain/services.js';
import { availableParallelism } from 'node:os';
import { Optimizer, type OptimizerLimits } from '../../domain/edge/optimizer/optimizer.js';
import { Watermarks } from '../../domain/edge/optimizer/watermarks.js';
import { EdgeCompression } from './compress.js';
import { EdgePipeline } from './pipeline.js';
import { EdgeWebSockets } from './websockets.js';

export interface EdgeCoreOptions {
  cdnDomain: string;
  cacheBytes: number;
  /** The port of the HTTPS listener as clients reach it (ForceSSL redirects). Default 443. */
  httpsPort?: number | undefined;
  challenges?: HttpChallenges | undefined;
  logError: (error: unknown) => void;
  /** The clock cache freshness is measured on (tests move it). */
  now?: (() => number) | undefined;
  /** Where what an operator should hear goes (a client above a zone's DDoS threshold); default nowhere. */
  logWarn?: ((fields: Record<string, unknown>, message: string) => void) | undefined;
  /** The DDoS protection's figures (ddos/thresholds.ts); tests make them small. */
  ddos?: Partial<DdosSettings> | undefined;
  /** The status widget's script URL with `{code}` (EDGEPLANE_STATUS_WIDGET_SCRIPT); unset: error pages show none. */
  statusWidgetScript?: string | undefined;
  /** The bounds of the answers the preloading screen holds (preloader/held-answers.ts); tests shorten the hold. */
  preloading?: Partial<HeldLimits> | undefined;
  /** The optimizer's bounds (domain/edge/optimizer/optimizer.ts); default DEFAULT_OPTIMIZER_LIMITS. */
  optimizer?: Partial<OptimizerLimits> | undefined;
}

/** One transformation per core at once; up to 64 more wait, each at most 10 s (then the original is answered). */
export const DEFAULT_OPTIMIZER_LIMITS: OptimizerLimits = { concurrency: Math.max(1, availableParallelism()), maxQueued: 64, maxWaitMs: 10_000 };

export interface EdgeCore {
  pipeline: EdgePipeline;
  /** Upgrades to WebSocket, proxied to the zones' origins; their counts per zone on this instance. */
  webSockets: EdgeWebSockets;
  cache: EdgeCache;
  directory: EdgeDirectory;
  /** Set once the HTTPS listener knows its port (unless the options named it). */
  httpsPort: number;
  /** Whether the options named the HTTPS port clients reach. */
  httpsPortFixed: boolean;
  logError: (error: unknown) => void;
  /** Which addresses origins may have; the edge's listeners add their own ports to it (no zone may pull from the edge). */
  originAddresses: OriginAddresses;
  /** The zones' perma-cache; its writes are let finish when the listeners close. */
  permaCache: PermaCache;
  /** The deployment's origin shield; the HTTP listener tells it its port (whether this instance is the shield). */
  shield: OriginShield;
}

/** Made once by the server (serve.ts) and handed to both edge listeners. */
export function createEdgeCore(services: Services, options: EdgeCoreOptions): EdgeCore {
  const directory = new EdgeDirectory(
    { store: services.store, pullZones: services.pullZones.zones, dnsZones: services.dnsZones.zones, cdnDomain: options.cdnDomain },
    options.logError,
  );
  directory.start();
  const cache = new EdgeCache(options.cacheBytes);
  // A zone's copies go with the zone, a new CacheVersion, or a purge that covers them.
  directory.onReload.push((id, before, after) => {
    if (!after) cache.dropZone(id);
    else if (before && before.zone.CacheVersion !== after.zone.CacheVersion) cache.dropZone(id);
    else if (before && before.purges.seq !== after.purges.seq) cache.dropZone(id, (entry) => after.purges.covers(entry));
  });
  directory.onForgetAll.push(() => cache.clear());
  const permaCache = new PermaCache({ store: services.store, files: services.files, storageZones: services.storageZones.zones, logError: options.logError });
  const core: EdgeCore = {
    directory,
    cache,
    httpsPort: options.httpsPort ?? 443,
    httpsPortFixed: options.httpsPort !== undefined,
    logError: options.logError,
    originAddresses: services.originAddresses,
    permaCache,
    shield: services.originShield,
    pipeline: undefined as unknown as EdgePipeline,
    webSockets: undefined as unknown as EdgeWebSockets,
  };
  const logWarn = options.logWarn ?? (() => undefined);
  const ddos = new DdosGuard(
    { ...DEFAULT_DDOS_SETTINGS, ...options.ddos },
    services.edgeChallengeKey,
    {
      counted: (zoneId, outcome) => services.edgeUsage.ddos(zoneId, outcome),
      detected: (details) => logWarn(details, "a client went above the pull zone's DDoS threshold"),
    },
    options.now,
  );
  const deps = {
    ddos,
    statusWidgetScript: options.statusWidgetScript,
    preloading: options.preloading,
    directory,
    cache,
    compression: new EdgeCompression(cache, options.logError),
    policy: createEdgePolicy({ httpsPort: core.httpsPort }),
    files: services.files,
    originAddresses: services.originAddresses,
    containerOrigins: services.appRuntime,
    originErrors: services.originErrors,
    permaCache,
    shield: services.originShield,
    scripts: services.edgeScripts.runtime,
    httpsPort: () => core.httpsPort,
    challenges: options.challenges,
    onServed: services.edgeUsage.served,
    logError: options.logError,
  };
  const optimizer = new Optimizer(new Watermarks(services.originAddresses), { ...DEFAULT_OPTIMIZER_LIMITS, ...options.optimizer });
  core.pipeline = new EdgePipeline({ ...deps, now: options.now, optimizer: { optimizer, onOptimized: services.edgeUsage.optimized } });
  // The same policy as the pipeline's: a client's connections and requests count once, whatever they ask.
  core.webSockets = new EdgeWebSockets({ ...deps, now: options.now ?? Date.now });
  return core;
}
