/**
 * The store a test runs on: a SQLite file, or — in the PostgreSQL project (TEST_STORE=postgres) —
 * a fresh database of the shared test server. The same tests run on both. Each starts as a copy of
 * a store migrated once per run (test/setup/sqlite-template.ts, test/setup/postgres.ts): as new and
 * as empty as one migrated on the spot, and of its own, so no test sees another's data.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { onDatabase } from './own-postgres.js';

export const testStoreKind = (): 'sqlite' | 'postgres' => (process.env['TEST_STORE'] === 'postgres' ? 'postgres' : 'sqlite');

export interface TestStoreLocation {
  /** Opens (again) the same data. */
  open(): Promise<Store>;
  /** Removes the data for good. */
  destroy(): Promise<void>;
  /** A DATABASE_URL for a server or CLI process on the same data. */
  databaseUrl: string;
}

/** Runs `work` on a connection of its own to the test PostgreSQL server, as its administrator. */
export const admin = <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => onDatabase(inject('pgUrl'), work);

/**
 * One administrator's connection per worker process, kept, for creating and dropping the tests'
 * databases: a new connection costs the server a process (about 30 ms of CPU on the CI machine),
 * twice per test app. It holds no state a test could see; a broken one is replaced.
 */
let kept: Promise<pg.Client> | undefined;
function keptAdmin(): Promise<pg.Client> {
  kept ??= (async () => {
    const client = new pg.Client({ connectionString: inject('pgUrl') });
    client.on('error', () => {
      kept = undefined;
    });
    client.on('end', () => {
      kept = undefined;
    });
    await client.connect();
    return client;
  })().catch((error: unknown) => {
    kept = undefined;
    throw error;
  });
  return kept;
}

export async function testStoreLocation(sqliteFile: string, kind = testStoreKind()): Promise<TestStoreLocation> {
  if (kind === 'sqlite') {
    if (!existsSync(sqliteFile)) {
      mkdirSync(dirname(sqliteFile), { recursive: true });
      copyFileSync(inject('sqliteTemplate'), sqliteFile);
    }
    return { open: () => SqliteStore.open(sqliteFile), destroy: async () => {}, databaseUrl: `sqlite:${sqliteFile}` };
  }
  const database = await takeDatabase();
  const url = new URL(inject('pgUrl'));
  url.pathname = `/${database}`;
  return {
    open: () => PostgresStore.open({ url: url.toString(), poolMax: 4 }),
    destroy: async () => dropLater(database),
    databaseUrl: url.toString(),
  };
}

/**
 * The database the worker's next test store gets, being made while the current test runs: a test
 * waits for neither the copy of its database nor the removal of the one before. Both run on the
 * kept connection, one after the other; the server does the same work, off the test's path.
 */
let spare: Promise<string> | undefined;

function takeDatabase(): Promise<string> {
  const next = spare ?? createDatabase();
  spare = createDatabase();
  return next;
}

/** A copy of the migrated template. FILE_COPY copies its files as they are: half the server's CPU of WAL_LOG (the default, which writes every page through the log), and of applying the migrations anew. */
function createDatabase(): Promise<string> {
  const database = `${inject('pgDatabasePrefix')}${randomBytes(6).toString('hex')}`;
  const created = keptAdmin()
    .then((admin) => admin.query(`CREATE DATABASE ${database} TEMPLATE ${inject('pgTemplate')} STRATEGY FILE_COPY`))
    .then(() => database);
  // Awaited by the test that takes it; a spare no test takes is removed with the run's others.
  created.catch(() => undefined);
  return created;
}

/**
 * Removed after the test, not awaited. FORCE: a connection a test left open must not keep it. What
 * a worker leaves behind (its spare, a removal cut short when it exits) the run's teardown removes
 * (test/setup/postgres.ts): every database of the run has its prefix.
 */
function dropLater(database: string): void {
  keptAdmin()
    .then((admin) => admin.query(`DROP DATABASE ${database} WITH (FORCE)`))
    .catch(() => undefined);
}

/**
 * Another store in the PostgreSQL database at `databaseUrl`, in a schema of its own (migrated when
 * first opened): what two deployments sharing one database are. Removed with its schema.
 */
export async function testStoreBeside(databaseUrl: string): Promise<TestStoreLocation> {
  const schema = `s_${randomBytes(6).toString('hex')}`;
  await onDatabase(databaseUrl, (c) => c.query(`CREATE SCHEMA ${schema}`));
  const withSchema = new URL(databaseUrl);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  return {
    open: () => PostgresStore.open({ url: databaseUrl, schema, poolMax: 4 }),
    destroy: () => onDatabase(databaseUrl, (c) => c.query(`DROP SCHEMA ${schema} CASCADE`)).then(() => undefined),
    databaseUrl: withSchema.toString(),
  };
}
