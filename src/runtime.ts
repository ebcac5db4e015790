/**
 * The composition root: everything the planes share, built once per process. From the
 * configuration and an open store it makes the secrets, the files backend, the clock, the job
 * runner and every domain service; `start()` starts the background work (jobs, sweeps, usage,
 * access-log and video plays flushes, bandwidth limits) and `close()` stops it in reverse and drains what is
 * pending. The planes receive what they need from here and build nothing of it themselves: the API
 * plane is one plane among the others (src/serve.ts starts them all).
 */
import type { LookupFunction } from 'node:net';
import type { Config } from './config.js';
import { systemClock, type Clock } from './domain/principal.js';
import { buildServices, type Services } from './domain/services.js';
import { openFilesBackend } from './files/location.js';
import type { BlobStore } from './files/types.js';
import { JobRunner } from './jobs/runner.js';
import { MEDIA_JOBS } from './domain/videos/media-jobs.js';
import { sweepWorkDirs } from './domain/videos/encode-job.js';
import { tmpdir } from 'node:os';
import { Secrets } from './security/secrets.js';
import type { Store } from './store/types.js';

/** Where background failures are reported (the process's logger; tests pass their own). */
export interface RuntimeLog {
  error(fields: Record<string, unknown>, message: string): void;
}

export interface RuntimeOptions {
  config: Config;
  store: Store;
  masterKey: Buffer;
  /** Default: the system clock. */
  clock?: Clock | undefined;
  /** The files backend; default: the one the configuration names, opened here and closed with the runtime. */
  blobs?: BlobStore | undefined;
  log?: RuntimeLog | undefined;
  /** How the edge resolves origin host names (default `dns.lookup`); tests point names where they need. */
  originLookup?: LookupFunction | undefined;
}

export interface Runtime {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  /** The master key's subkeys, for what seals or hashes credentials outside the services (idempotency keys). */
  readonly secrets: Secrets;
  readonly services: Services;
  /** Starts the background work; a runtime never started (tests, one-off commands) runs jobs only when asked (`services.jobs.runDue()`). */
  start(): void;
  /** Stops the background work and drains what it holds (usage, access log, audit); closes the files backend it opened. The store stays open: its opener closes it. */
  close(): Promise<void>;
}

const silent: RuntimeLog = { error: () => undefined };

export function buildRuntime(options: RuntimeOptions): Runtime {
  const { config, store } = options;
  const log = options.log ?? silent;
  const clock = options.clock ?? systemClock;
  const pollMs = Math.max(50, Math.min(1000, config.jobDelayMs));
  const onError = (kind: string, error: unknown) => log.error({ err: error, kind }, 'background job failed');
  // Encoding and fetching videos take minutes: they run on a runner of their own, so the short
  // jobs (webhooks, replication, scans) never wait behind them.
  const leaseMs = config.jobLeaseMs;
  const jobs = new JobRunner(store, clock, { pollMs, leaseMs, onError, lane: { except: MEDIA_JOBS } });
  const mediaJobs = new JobRunner(store, clock, { pollMs, leaseMs, onError, lane: { only: MEDIA_JOBS }, concurrency: config.encodeConcurrency });
  // One instance: deriving the subkeys (HKDF) is start-up work, done once.
  const secrets = new Secrets(options.masterKey);
  const blobs = options.blobs ?? openFilesBackend(config);
  const services = buildServices({
    store,
    secrets,
    clock,
    config,
    jobs,
    mediaJobs,
    blobs,
    originLookup: options.originLookup,
    logError: (error, message) => log.error({ err: error }, message),
  });
  let closing: Promise<void> | undefined;
  return {
    config,
    store,
    clock,
    secrets,
    services,
    start() {
      jobs.start();
      // What encodes of a killed process left in the temporary directory goes before new ones start.
      void sweepWorkDirs(tmpdir()).finally(() => {
        // A runtime closed while the sweep ran stays closed: starting the runner now would poll a closed store.
        if (closing === undefined) mediaJobs.start();
      });
      services.fileSweeper.start((error) => log.error({ err: error }, 'the files sweep failed'));
      services.lifecycleSweeper.start((error) => log.error({ err: error }, 'the S3 lifecycle sweep failed'));
      services.usage.start();
      services.edgeAccessLog.start();
      services.originErrors.start();
      services.logForwarding.start((error) => log.error({ err: error }, 'a log collector cannot be reached'));
      services.logFiles.start((error) => log.error({ err: error }, 'log lines could not be written to storage'));
      services.videoPlays.start();
      services.bandwidthLimits.start();
      services.appRuntime.start();
    },
    close: () =>
      (closing ??= (async () => {
        await jobs.stop();
        await mediaJobs.stop();
        await services.appRuntime.close();
        services.fileSweeper.stop();
        services.lifecycleSweeper.stop();
        await services.bandwidthLimits.close();
        await services.edgeAccessLog.close();
        await services.originErrors.close();
        await services.logFiles.close();
        await services.logForwarding.close();
        await services.videoPlays.close();
        await services.edgeScripts.runtime.close();
        await services.usage.close();
        await services.audit.drain();
        if (!options.blobs) await blobs.close();
      })()),
  };
}
