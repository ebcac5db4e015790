/**
 * The store a test runs on: a SQLite file, or — in the PostgreSQL project (TEST_STORE=postgres) —
 * a fresh schema of the shared test server. The same tests run on both.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/types.js';

export const testStoreKind = (): 'sqlite' | 'postgres' => (process.env['TEST_STORE'] === 'postgres' ? 'postgres' : 'sqlite');

export interface TestStoreLocation {
  /** Opens (again) the same data. */
  open(): Promise<Store>;
  /** Removes the data for good. */
  destroy(): Promise<void>;
  /** A DATABASE_URL for a server or CLI process on the same data. */
  databaseUrl: string;
  schema?: string;
}

/** Runs `work` on a connection of its own to the test PostgreSQL server, as its administrator. */
export async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('pgUrl') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function testStoreLocation(sqliteFile: string, kind = testStoreKind()): Promise<TestStoreLocation> {
  if (kind === 'sqlite') {
    return { open: () => SqliteStore.open(sqliteFile), destroy: async () => {}, databaseUrl: `sqlite:${sqliteFile}` };
  }
  const url = inject('pgUrl');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE SCHEMA ${schema}`));
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  return {
    open: () => PostgresStore.open({ url, schema, poolMax: 4 }),
    destroy: () => admin((c) => c.query(`DROP SCHEMA ${schema} CASCADE`)).then(() => undefined),
    databaseUrl: withSchema.toString(),
    schema,
  };
}
