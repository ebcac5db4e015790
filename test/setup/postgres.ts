/**
 * Global setup of the PostgreSQL test run: a real PostgreSQL server (test/helpers/own-postgres.ts),
 * or the server named by TEST_DATABASE_URL (its role needs CREATEDB), and on it one database with
 * every migration applied. Each test store is a database of its own copied from that template
 * (test/helpers/store.ts): copying costs the server about half the CPU of running the migrations
 * again, and the copy is as new and empty as a freshly migrated store.
 */
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { onDatabase, ownPostgres } from '../helpers/own-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    /** The migrated database every test database is copied from (CREATE DATABASE ... TEMPLATE). */
    pgTemplate: string;
    /** How the names of this run's test databases begin. */
    pgDatabasePrefix: string;
  }
}

/**
 * The shared server's settings. Many test apps at once, each with a small pool. No disk syncs: a
 * sync guards against the machine losing power, which no test does (the crash tests kill the
 * edgeplane processes, never this server, and what PostgreSQL committed stays visible without a
 * sync); each commit otherwise waits for one. Tests that stop and restart PostgreSQL start a server
 * of their own with the defaults.
 */
const SERVER_FLAGS = ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

export default async function setup(project: TestProject) {
  const existing = process.env['TEST_DATABASE_URL'];
  const server = existing ? undefined : await ownPostgres(SERVER_FLAGS);
  const url = existing ?? server!.url;
  const run = randomBytes(4).toString('hex');
  const template = `edgeplane_template_${run}`;
  const prefix = `t_${run}_`;
  try {
    await createTemplate(url, template);
  } catch (error) {
    await server?.destroy();
    throw error;
  }
  project.provide('pgUrl', url);
  project.provide('pgTemplate', template);
  project.provide('pgDatabasePrefix', prefix);
  return async () => {
    if (server) return server.destroy();
    // On a server of the caller's: the template, and what the workers left (test/helpers/store.ts).
    await onDatabase(url, async (c) => {
      const left = await c.query<{ name: string }>('SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
      for (const { name } of left.rows) await c.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await c.query(`ALTER DATABASE ${template} WITH IS_TEMPLATE false`);
      await c.query(`DROP DATABASE ${template}`);
    });
  };
}

/** A database migrated by the store itself, then closed to connections: only copies are used. */
async function createTemplate(url: string, name: string): Promise<void> {
  await onDatabase(url, (c) => c.query(`CREATE DATABASE ${name}`));
  const at = new URL(url);
  at.pathname = `/${name}`;
  const store = await PostgresStore.open({ url: at.toString(), poolMax: 1 });
  await store.close();
  await onDatabase(url, (c) => c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`));
}
