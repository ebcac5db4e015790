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
import type { ChangeFeed, StoreChange, Store } from '../../src/store/types.js';
import { onDatabase } from './own-postgres.js';

export const testStoreKind = (): 'sqlite' | 'postgres' => (process.env['TEST_STORE'] === 'postgres' ? 'postgres' : 'sqlite');

export interface TestStoreLocation {
  /** Opens (again) the same data. */
  open(): Promise<Store>;
  /** A store of its own on the same data, as a second process has (default: open()). */
  openAnother?: () => Promise<Store>;
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
 * The store of a test app (test/helpers/app.ts): on SQLite a copy of the template as always; on
 * PostgreSQL the worker's kept store, emptied after each test, when no other test app holds it.
 * Opening a store per test costs PostgreSQL two to four new server processes and cold catalog
 * caches in each (about 150 ms a test on the CI machine, twice SQLite's whole test); the kept one
 * keeps its connections warm. What a test sees is the same: an empty, migrated store of its own
 * (every table emptied and every sequence restarted between tests), and the services it builds
 * hear only the changes made while it runs.
 */
export async function leasedTestStore(sqliteFile: string, kind = testStoreKind()): Promise<TestStoreLocation> {
  if (kind === 'sqlite') return testStoreLocation(sqliteFile, kind);
  const store = await keptStore();
  if (store === undefined || store.leased) return testStoreLocation(sqliteFile, kind);
  store.leased = true;
  return {
    // Opened again (a restart), the same data: the views share the kept store.
    open: async () => store.view(),
    openAnother: () => PostgresStore.open({ url: store.url, poolMax: 4 }),
    destroy: async () => release(store),
    databaseUrl: store.url,
  };
}

interface KeptStore {
  readonly store: PostgresStore;
  readonly url: string;
  /** The schema as migrated: a test that changed it gives the store up rather than pass the change on. */
  readonly shape: string;
  leased: boolean;
  /** A view for one app: the kept store, with a change feed of its own and a close() that only detaches it. */
  view(): Store;
  /** Detaches every view still attached. */
  detachAll(): void;
}

let keptOpen: Promise<KeptStore | undefined> | undefined;
/** The emptying after the last test, awaited before the next lease. */
let emptied: Promise<void> = Promise.resolve();

async function keptStore(): Promise<KeptStore | undefined> {
  await emptied;
  keptOpen ??= openKept().catch(() => undefined);
  const found = await keptOpen;
  if (found === undefined) keptOpen = undefined;
  return found;
}

const SHAPE_SQL = `SELECT (SELECT string_agg(table_name || '.' || column_name || ':' || data_type, ',' ORDER BY table_name, column_name)
  FROM information_schema.columns WHERE table_schema = current_schema()) || '|' || (SELECT string_agg(version::text, ',' ORDER BY version) FROM schema_migrations) AS shape`;

/**
 * Empties every table but the migrations' and restarts every sequence, in one round trip. Rows are
 * deleted with the triggers and foreign-key checks off (`session_replication_role = replica`, a
 * superuser's setting: the embedded server's user is one): on tables of a few rows that is about a
 * quarter of TRUNCATE's time (7 ms against 25–40, measured), and TRUNCATE ran once per test.
 */
const EMPTY_SQL = `DO $$ DECLARE name text; BEGIN
  SET LOCAL session_replication_role = replica;
  FOR name IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations' LOOP
    EXECUTE format('DELETE FROM %I', name);
  END LOOP;
  FOR name IN SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema() LOOP
    EXECUTE format('ALTER SEQUENCE %I RESTART', name);
  END LOOP;
END $$`;

/** The same for a user who may not turn triggers off (TEST_DATABASE_URL may name one). */
const TRUNCATE_SQL = `DO $$ DECLARE name text; BEGIN
  SELECT 'TRUNCATE ' || string_agg(format('%I', tablename), ', ') || ' RESTART IDENTITY CASCADE' INTO name
    FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations';
  EXECUTE name;
  FOR name IN SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema() LOOP
    EXECUTE format('ALTER SEQUENCE %I RESTART', name);
  END LOOP;
END $$`;

async function openKept(): Promise<KeptStore> {
  const database = await takeDatabase();
  const url = new URL(inject('pgUrl'));
  url.pathname = `/${database}`;
  const store = await PostgresStore.open({ url: url.toString(), poolMax: 4 });
  const shape = await shapeOf(store);
  const attached = new Set<((change: StoreChange) => void)[]>();
  store.changes.subscribe((change) => {
    for (const listeners of attached) for (const listener of listeners) listener(change);
  });
  return {
    store,
    url: url.toString(),
    shape,
    leased: false,
    detachAll: () => attached.clear(),
    view() {
      const listeners: ((change: StoreChange) => void)[] = [];
      attached.add(listeners);
      const changes: ChangeFeed = {
        generation: () => store.changes.generation(),
        subscribe: (listener) => {
          listeners.push(listener);
        },
      };
      const close = async () => {
        attached.delete(listeners);
      };
      return new Proxy(store, {
        get(target, property) {
          if (property === 'changes') return changes;
          if (property === 'close') return close;
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      }) as Store;
    },
  };
}

async function shapeOf(store: PostgresStore): Promise<string> {
  const pool = (store as unknown as { pool: pg.Pool }).pool;
  return (await pool.query<{ shape: string }>(SHAPE_SQL)).rows[0]!.shape;
}

/** Empties the kept store for the next test; a store that cannot be emptied, or whose schema a test changed, is given up (the next test opens a new one). */
function release(store: KeptStore): void {
  store.detachAll();
  emptied = (async () => {
    try {
      if ((await shapeOf(store.store)) !== store.shape) throw new Error('the schema changed');
      const pool = (store.store as unknown as { pool: pg.Pool }).pool;
      await pool.query(EMPTY_SQL).catch(() => pool.query(TRUNCATE_SQL));
      // The ids drawn ahead belong to the sequences just restarted.
      store.store.changes.emit({ type: 'all' });
      store.leased = false;
    } catch {
      keptOpen = undefined;
      await store.store.close().catch(() => undefined);
      dropLater(new URL(store.url).pathname.slice(1));
    }
  })();
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
