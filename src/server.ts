/**
 * `npm start`: reads the configuration once, opens the store, creates the first account on an
 * empty store, serves, and shuts down cleanly on SIGTERM/SIGINT (in-flight requests finish first).
 */
import { buildApp } from './app.js';
import { ConfigError, readConfig, type Config } from './config.js';
import { SeedError } from './seed/apply.js';
import { resolveMasterKey } from './security/master-key.js';
import { prepareStore } from './seed/prepare.js';
import { openStore } from './store/open.js';

export async function serve(config: Config): Promise<void> {
  const masterKey = resolveMasterKey(config);
  const store = await openStore(config);
  const app = await buildApp({
    config,
    store,
    masterKey,
    logger: {
      level: config.logLevel,
      // Credentials never reach the logs, whatever a future serializer includes.
      redact: { paths: ['req.headers.accesskey', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    },
  });

  const boot = await prepareStore(app, config);
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

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  try {
    await serve(readConfig());
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SeedError) {
      process.stderr.write(`edgeplane: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
