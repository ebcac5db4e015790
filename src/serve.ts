/**
 * The server's life: opens the store, creates the first account on an empty store, serves, and
 * shuts down cleanly on SIGTERM/SIGINT (in-flight requests finish first). Started by `npm start`
 * (server.ts) and by `edgeplane serve`.
 */
import type { LoggerOptions } from 'pino';
import { buildApp } from './planes/api/app.js';
import type { Config } from './config.js';
import { resolveMasterKey } from './security/master-key.js';
import { prepareStore } from './seed/prepare.js';
import { openStore } from './store/open.js';

/**
 * Structured JSON logs, one object per line, every line of a request carrying its `reqId`; readable
 * text instead when a person watches a terminal. Fastify's request serializer logs neither headers
 * nor bodies, so credentials stay out; the redact paths and the error serializer keep it so if a
 * future log call includes more.
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, pretty = process.stdout.isTTY === true): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: ['req.headers.accesskey', 'req.headers.authorization', 'req.headers.cookie', 'req.body', 'body'], censor: '[redacted]' },
    serializers: { err: errorForLog },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  };
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
  const store = await openStore(config);
  const app = await buildApp({
    config,
    store,
    masterKey,
    logger: loggerOptions(config),
  });

  const boot = await prepareStore(app, config, app.resetGate);
  if (boot.generatedKey) {
    // Straight to stdout, not the logger: shown once to the person starting the server.
    process.stdout.write(`edgeplane: created the first account; its API key (shown once): ${boot.generatedKey}\n`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ host: config.host, port: config.port });
  // Always said, whatever the log level: scripts wait for this line.
  process.stdout.write(`edgeplane: listening on ${address} (store: ${store.dialect})\n`);
}
