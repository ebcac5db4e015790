/**
 * The server's life: opens the store, builds the runtime once (runtime.ts: every service and the
 * background work), creates the first account on an empty store, starts every plane that is not
 * `off` on its own port over that runtime, and shuts them all down cleanly on SIGTERM/SIGINT
 * (listeners stop accepting, requests in flight finish, the process exits within 10 s). Started by
 * `npm start` (server.ts) and by `edgeplane serve`.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { openFilesBackend } from './files/location.js';
import { buildApp } from './planes/api/app.js';
import { listenApi } from './planes/api/listen.js';
import { udpBatching } from './native/udp-batch.js';
import { startDnsPlane } from './planes/dns/plane.js';
import { listenEdge, listenEdgeTls } from './planes/edge/listen.js';
import { listenS3 } from './planes/s3/listen.js';
import { listenStorage } from './planes/storage/listen.js';
import { listenLogging } from './planes/logging/listen.js';
import { buildVideoApp } from './planes/video/app.js';
import { listenVideo } from './planes/video/listen.js';
import { PlaneStates, type RunningPlane } from './planes/plane.js';
import { buildRuntime, type Runtime } from './runtime.js';
import { createLogger } from './logging.js';
import { createEdgeCore } from './planes/edge/core.js';
import { resolveMasterKey } from './security/master-key.js';
import { prepareStore } from './seed/prepare.js';
import { openStore } from './store/open.js';
import { catchStrayErrors } from './stray-errors.js';

/** A graceful close that takes longer than this ends the connections still open. */
const GRACE_MS = 8_000;
/** A stop for an error that left the process in an unknown state exits by then, even if closing hangs. */
const STOP_DEADLINE_MS = 10_000;

/** A started server: its planes listening, its background work running. */
export interface RunningServer {
  readonly runtime: Runtime;
  /** The management API's app; none when `PORT=off` and no seed asked for it. */
  readonly api: FastifyInstance | undefined;
  readonly planes: readonly RunningPlane[];
  /** Stops the planes (their requests in flight finish, within 8 s), then the background work, the files and the store. */
  close(): Promise<void>;
}

/** Starts the planes `config` does not turn off over one runtime, the API's port last; each plane's line is written as it listens. */
export async function startServer(config: Config, log: FastifyBaseLogger): Promise<RunningServer> {
  const masterKey = resolveMasterKey(config);
  // Before the store: a configuration the files cannot work with is refused without touching the database.
  const blobs = openFilesBackend(config);
  const store = await openStore(config);
  const runtime = buildRuntime({ config, store, masterKey, blobs, log });
  const { services } = runtime;
  const planes = new PlaneStates();
  // The API plane is built only to listen, or to apply a seed (it applies one through its routes).
  const api = config.port !== 'off' || config.seed ? await buildApp({ runtime, logger: log, planes }) : undefined;

  const running: RunningPlane[] = [];
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const force = setTimeout(() => {
        for (const plane of running) plane.forceClose();
      }, GRACE_MS);
      force.unref();
      // The planes stop together, then the background work, the files backend and the store they all used.
      await Promise.allSettled(running.map((p) => p.close()));
      if (api && !running.some((p) => p.name === 'api')) await api.close();
      clearTimeout(force);
      await runtime.close();
      await blobs.close();
      await store.close();
    })());

  const logPlaneError = (plane: string) => (error: unknown) => log.error({ err: error, plane }, 'request failed');
  // Each line as its plane listens, straight to stdout (written at once, not through the logger's
  // buffer): always said, whatever the log level, for scripts wait for these lines.
  const listening = (plane: RunningPlane) => {
    running.push(plane);
    // No pull zone may pull from edgeplane's own listeners, on whatever port the system picked.
    if (plane.url.startsWith('http')) services.originAddresses.listening(Number(new URL(plane.url).port));
    planes.set(plane.name, 'ok');
    process.stdout.write(`edgeplane: ${plane.name} listening on ${plane.url}\n`);
  };
  try {
    const boot = await prepareStore(services, config, api);
    if (boot.generatedKey) {
      // Straight to stdout, not the logger: shown once to the person starting the server.
      process.stdout.write(`edgeplane: created the first account; its API key (shown once): ${boot.generatedKey}\n`);
    }
    runtime.start();
    process.stdout.write(`edgeplane: container apps run on ${services.appRuntime.description}\n`);
    // The API's port opens last, once every other plane listens: a deployment that waits for the
    // API to answer and then uses a plane finds it there.
    await api?.ready();
    if (config.storagePort !== 'off')
      listening(await listenStorage(services, config.host, config.storagePort, logPlaneError('storage'), { idleMs: config.transferIdleTimeoutMs }));
    if (config.edgePort !== 'off' || config.edgeTlsPort !== 'off') {
      const { certificates } = services;
      // One core for both listeners: a purge or a hit counts once whichever way a request came.
      const core = createEdgeCore(services, {
        cdnDomain: config.cdnDomain,
        cacheBytes: config.edgeCacheBytes,
        challenges: certificates.httpChallenges,
        logError: logPlaneError('edge'),
        logWarn: (fields, message) => log.warn({ plane: 'edge', ...fields }, message),
        ddos: { requestsPerWindow: config.edgeDdosThreshold },
        statusWidgetScript: config.statusWidgetScript,
      });
      await certificates.httpChallenges.start();
      // HTTPS first: redirects to it (ForceSSL) name its real port.
      if (config.edgeTlsPort !== 'off') listening(await listenEdgeTls(core, certificates.edge, config.host, config.edgeTlsPort));
      if (config.edgePort !== 'off') {
        const edge = await listenEdge(core, config.host, config.edgePort);
        listening(edge);
        certificates.edgeUrl = edge.url;
      }
    }
    if (config.dnsPort !== 'off') {
      const batching = config.dnsUdpBatching === 'on' ? udpBatching() : undefined;
      if (batching instanceof Error) log.warn({ plane: 'dns' }, `UDP batching is not available, node:dgram answers instead: ${batching.message}`);
      listening(
        await startDnsPlane(services, config.host, config.dnsPort, {
          rateLimitPerSecond: config.dnsRateLimitPerSecond,
          maxTcpConnectionsPerClient: config.dnsTcpConnectionsPerClient,
          udpBatching: config.dnsUdpBatching === 'on',
          secondaries: config.dnsSecondaries,
          tsigKeys: config.dnsTsigKeys,
          logError: logPlaneError('dns'),
        }),
      );
    }
    if (config.s3Port !== 'off')
      listening(
        await listenS3(services, config.host, config.s3Port, {
          storageDomain: config.storageDomain,
          logError: logPlaneError('s3'),
          timeouts: { idleMs: config.transferIdleTimeoutMs },
        }),
      );
    if (config.loggingPort !== 'off') listening(await listenLogging(services, config.host, config.loggingPort, logPlaneError('logging')));
    if (config.videoPort !== 'off') listening(await listenVideo(await buildVideoApp({ services, config, logger: log }), config.host, config.videoPort));
    if (api && config.port !== 'off') listening(await listenApi(api, config.host, config.port));
  } catch (error) {
    await close();
    throw error;
  }
  return { runtime, api, planes: running, close };
}

/** The server's life: starts it, stops it cleanly on SIGTERM/SIGINT, and keeps a last resort for errors nothing caught. */
export async function serve(config: Config): Promise<void> {
  const log = createLogger(config);
  let server: RunningServer | undefined;
  // The last resort for errors nothing caught (stray-errors.ts): logged; the process serves on
  // unless one may have left it in an unknown state, then it stops as on SIGTERM and exits with 1.
  const releaseStrayErrors = catchStrayErrors(log, () => {
    setTimeout(() => process.exit(1), STOP_DEADLINE_MS);
    void (server?.close() ?? Promise.resolve()).finally(() => process.exit(1));
  });
  try {
    server = await startServer(config, log);
  } catch (error) {
    // A start that failed fails as it always has (start.ts), not as an error to serve on after.
    releaseStrayErrors();
    throw error;
  }
  const started = server;
  const shutdown = async (signal: string) => {
    log.info({ signal }, 'shutting down');
    await started.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  // The line scripts have always waited for: every plane listens.
  const apiPlane = started.planes.find((p) => p.name === 'api');
  if (apiPlane) process.stdout.write(`edgeplane: listening on ${apiPlane.url} (store: ${started.runtime.store.dialect})\n`);
}
