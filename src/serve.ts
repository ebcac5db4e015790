/**
 * The server's life: opens the store, creates the first account on an empty store, starts every
 * plane that is not `off` on its own port, and shuts them all down cleanly on SIGTERM/SIGINT
 * (listeners stop accepting, requests in flight finish, the process exits within 10 s). Started by
 * `npm start` (server.ts) and by `edgeplane serve`.
 */
import { type DestinationStream, type LoggerOptions, pino } from 'pino';
import type { Config } from './config.js';
import { openFilesBackend } from './files/location.js';
import { buildApp } from './planes/api/app.js';
import { listenApi } from './planes/api/listen.js';
import { udpBatching } from './planes/dns/datagrams/batched.js';
import { startDnsPlane } from './planes/dns/plane.js';
import { listenEdge, listenEdgeTls } from './planes/edge/listen.js';
import { listenS3 } from './planes/s3/listen.js';
import { listenStorage } from './planes/storage/listen.js';
import type { RunningPlane } from './planes/plane.js';
import { resolveMasterKey } from './security/master-key.js';
import { prepareStore } from './seed/prepare.js';
import { openStore } from './store/open.js';
import { requestForLog } from './planes/api/request-log.js';
import { catchStrayErrors } from './stray-errors.js';

/** A graceful close that takes longer than this ends the connections still open. */
const GRACE_MS = 8_000;
/** A stop for an error that left the process in an unknown state exits by then, even if closing hangs. */
const STOP_DEADLINE_MS = 10_000;

/**
 * Structured JSON logs, one object per line, every line of a request carrying its `reqId`; readable
 * text instead when a person watches a terminal. Credentials stay out by construction: a request is
 * logged as the few fields below (never its headers or body), a `body` never, an error as its kind,
 * message, code and stack. Serializers rather than pino's path redaction, which cost about 4 µs
 * on every request line (its own time was 40% of the line's) to censor fields these never emit.
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel'>,
  pretty = process.stdout.isTTY === true,
  stream?: DestinationStream,
): LoggerOptions & { stream?: DestinationStream } {
  return {
    ...(stream && !pretty ? { stream } : {}),
    level: config.logLevel,
    serializers: { err: errorForLog, req: requestForLog, body: () => '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  };
}

/**
 * Standard output, written in blocks rather than a write(2) per line: a line per request then costs
 * the request a string, not a system call (about a third of a cached read's time went to writing its
 * log lines synchronously). What is buffered is written when the process exits, whether it stops, is
 * stopped by a signal or crashes; only a SIGKILL can lose the last second's lines (at most 32 KiB).
 */
function logStream(): DestinationStream {
  // Lines are gathered as bytes: gathered as text, each line re-measured the whole pending block
  // (a cons string flattened and UTF-8 counted per line), 2.6-3.1 us a line against 0.7-0.9 us.
  // Each write(2) is a hop to libuv's thread pool: 32 KiB blocks make it one per ~100 lines.
  const stream = pino.destination({ dest: 1, sync: false, minLength: 32 * 1024, maxWrite: 64 * 1024, contentMode: 'buffer' });
  // A quiet server's lines still show up within a second of being logged.
  setInterval(() => stream.flush(), 1000).unref();
  process.on('exit', () => stream.flushSync());
  const bytes = stream as unknown as { write(line: Buffer): boolean };
  return { write: (line: string) => bytes.write(Buffer.from(line)) };
}

/**
 * Only an error's kind, message, code and stack (and the same of its cause) are logged: errors from
 * drivers and libraries carry arbitrary properties — rows, query parameters, request options —
 * that may hold credentials.
 */
function errorForLog(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const { code } = error as { code?: unknown };
  return {
    type: error.name,
    message: error.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    stack: error.stack,
    ...(error.cause !== undefined && depth < 3 ? { cause: errorForLog(error.cause, depth + 1) } : {}),
  };
}

export async function serve(config: Config): Promise<void> {
  const masterKey = resolveMasterKey(config);
  // Before the store: a configuration the files cannot work with is refused without touching the database.
  const blobs = openFilesBackend(config);
  const store = await openStore(config);
  const app = await buildApp({ config, store, masterKey, blobs, logger: loggerOptions(config, process.stdout.isTTY === true, logStream()) });
  app.addHook('onClose', () => blobs.close());

  const boot = await prepareStore(app, config, app.resetGate);
  if (boot.generatedKey) {
    // Straight to stdout, not the logger: shown once to the person starting the server.
    process.stdout.write(`edgeplane: created the first account; its API key (shown once): ${boot.generatedKey}\n`);
  }

  const running: RunningPlane[] = [];
  let closing: Promise<void> | undefined;
  const closeAll = () =>
    (closing ??= (async () => {
      const force = setTimeout(() => {
        for (const plane of running) plane.forceClose();
      }, GRACE_MS);
      force.unref();
      // The API plane's app owns the background jobs: closing it last stops them after the other planes.
      await Promise.allSettled(running.filter((p) => p.name !== 'api').map((p) => p.close()));
      await (running.find((p) => p.name === 'api') ?? app).close();
      clearTimeout(force);
      await store.close();
    })());
  // The last resort for errors nothing caught (stray-errors.ts): logged; the process serves on
  // unless one may have left it in an unknown state, then it stops as on SIGTERM and exits with 1.
  const releaseStrayErrors = catchStrayErrors(app.log, () => {
    setTimeout(() => process.exit(1), STOP_DEADLINE_MS);
    void closeAll().finally(() => process.exit(1));
  });
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await closeAll();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  const logPlaneError = (plane: string) => (error: unknown) => app.log.error({ err: error, plane }, 'request failed');
  // Each line as its plane listens, straight to stdout (written at once, not through the logger's
  // buffer): always said, whatever the log level, for scripts wait for these lines.
  const listening = (plane: RunningPlane) => {
    running.push(plane);
    app.planes.set(plane.name, 'ok');
    process.stdout.write(`edgeplane: ${plane.name} listening on ${plane.url}\n`);
  };
  try {
    // The API's port opens last, once every other plane listens: a deployment that waits for the
    // API to answer and then uses a plane finds it there.
    await app.ready();
    if (config.storagePort !== 'off') listening(await listenStorage(app.services, config.host, config.storagePort, logPlaneError('storage')));
    if (config.edgePort !== 'off' || config.edgeTlsPort !== 'off') {
      const { certificates } = app.services;
      const options = {
        cdnDomain: config.cdnDomain,
        cacheBytes: config.edgeCacheBytes,
        challenges: certificates.httpChallenges,
        logError: logPlaneError('edge'),
      };
      await certificates.httpChallenges.start();
      // HTTPS first: redirects to it (ForceSSL) name its real port.
      if (config.edgeTlsPort !== 'off') listening(await listenEdgeTls(app.services, config.host, config.edgeTlsPort, options));
      if (config.edgePort !== 'off') {
        const edge = await listenEdge(app.services, config.host, config.edgePort, options);
        listening(edge);
        certificates.edgeUrl = edge.url;
      }
    }
    if (config.dnsPort !== 'off') {
      const batching = config.dnsUdpBatching === 'on' ? udpBatching() : undefined;
      if (batching instanceof Error) app.log.warn({ plane: 'dns' }, `UDP batching is not available, node:dgram answers instead: ${batching.message}`);
      listening(
        await startDnsPlane(app.services, config.host, config.dnsPort, {
          rateLimitPerSecond: config.dnsRateLimitPerSecond,
          maxTcpConnectionsPerClient: config.dnsTcpConnectionsPerClient,
          udpBatching: config.dnsUdpBatching === 'on',
          logError: logPlaneError('dns'),
        }),
      );
    }
    if (config.s3Port !== 'off')
      listening(await listenS3(app.services, config.host, config.s3Port, { storageDomain: config.storageDomain, logError: logPlaneError('s3') }));
    if (config.port !== 'off') listening(await listenApi(app, config.host, config.port));
  } catch (error) {
    // A start that failed fails as it always has (start.ts), not as an error to serve on after.
    releaseStrayErrors();
    await closeAll();
    throw error;
  }
  // The line scripts have always waited for: every plane listens.
  const api = running.find((p) => p.name === 'api');
  if (api) process.stdout.write(`edgeplane: listening on ${api.url} (store: ${store.dialect})\n`);
}
