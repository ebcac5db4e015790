/**
 * The parts the edge's listeners share in one process: the directory of hostnames and zones, the
 * cache (its copies dropped as zones change), the policy's per-client counters and the pipeline.
 * The HTTP and HTTPS listeners serve from the same ones, so a purge or a hit counts once whichever
 * way a request came.
 */
import { EdgeCache } from '../../domain/edge/cache/edge-cache.js';
import { createEdgePolicy } from '../../domain/edge/policy/index.js';
import { EdgeDirectory } from '../../domain/edge/routing/directory.js';
import type { OriginAddresses } from '../../domain/edge/origin/addresses.js';
import type { HttpChallenges } from '../../domain/edge/types.js';
import type { Services } from '../../domain/services.js';
import { EdgeCompression } from './compress.js';
import { EdgePipeline } from './pipeline.js';

export interface EdgeCoreOptions {
  cdnDomain: string;
  cacheBytes: number;
  /** The port of the HTTPS listener as clients reach it (ForceSSL redirects). Default 443. */
  httpsPort?: number | undefined;
  challenges?: HttpChallenges | undefined;
  logError: (error: unknown) => void;
  /** The clock cache freshness is measured on (tests move it). */
  now?: (() => number) | undefined;
}

export interface EdgeCore {
  pipeline: EdgePipeline;
  cache: EdgeCache;
  directory: EdgeDirectory;
  /** Set once the HTTPS listener knows its port (unless the options named it). */
  httpsPort: number;
  /** Whether the options named the HTTPS port clients reach. */
  httpsPortFixed: boolean;
  logError: (error: unknown) => void;
  /** Which addresses origins may have; the edge's listeners add their own ports to it (no zone may pull from the edge). */
  originAddresses: OriginAddresses;
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
  const core: EdgeCore = {
    directory,
    cache,
    httpsPort: options.httpsPort ?? 443,
    httpsPortFixed: options.httpsPort !== undefined,
    logError: options.logError,
    originAddresses: services.originAddresses,
    pipeline: undefined as unknown as EdgePipeline,
  };
  core.pipeline = new EdgePipeline({
    directory,
    cache,
    compression: new EdgeCompression(cache, options.logError),
    policy: createEdgePolicy({ httpsPort: core.httpsPort }),
    files: services.files,
    originAddresses: services.originAddresses,
    httpsPort: () => core.httpsPort,
    challenges: options.challenges,
    onServed: services.edgeUsage.served,
    logError: options.logError,
    now: options.now,
  });
  return core;
}
