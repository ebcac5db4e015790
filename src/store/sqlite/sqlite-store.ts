/**
 * SQLite store on better-sqlite3. WAL journal with `synchronous = FULL`: a commit returns only
 * after the WAL is fsynced, so every acknowledged write survives a crash or power loss.
 *
 * better-sqlite3 is synchronous, but the Store interface is async (PostgreSQL needs it). While a
 * transaction is open, its body may await; a lock keeps every other caller out until it commits,
 * so no one ever reads another request's uncommitted writes.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadMigrations } from '../migrations.js';
import type { Accounts, ApiKeys, Documents, DumpRecord, IdempotencyKeys, Jobs, Store, StoreStats, StoreTx } from '../types.js';
import { SqliteChangeFeed } from './changes.js';
import { dumpSqlite, loadSqlite } from './dump.js';
import { SqliteIdempotencyKeys } from './idempotency.js';
import { SqliteAccounts, SqliteApiKeys, SqliteDocuments, SqliteJobs, SqliteSequences } from './repositories.js';

type Db = Database.Database;

export class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  readonly accounts: Accounts;
  readonly apiKeys: ApiKeys;
  readonly docs: Documents;
  readonly jobs: Jobs;
  readonly idempotency: IdempotencyKeys;
  readonly changes: SqliteChangeFeed;
  private readonly tx: StoreTx;
  private readonly sequences: SqliteSequences;
  private queue: Promise<void> = Promise.resolve();
  private locked = false;
  private openTransactions = 0;

  private constructor(private readonly db: Db) {
    this.sequences = new SqliteSequences(db);
    this.changes = new SqliteChangeFeed(db);
    this.tx = {
      accounts: new SqliteAccounts(db),
      apiKeys: new SqliteApiKeys(db, this.changes),
      docs: new SqliteDocuments(db, this.changes),
      jobs: new SqliteJobs(db),
      nextId: async (name) => this.sequences.next(name),
      lock: async () => {},
    };
    // Outside a transaction, callers wait while one is open instead of reading its uncommitted rows.
    this.accounts = this.gated(this.tx.accounts);
    this.apiKeys = this.gated(this.tx.apiKeys);
    this.docs = this.gated(this.tx.docs);
    this.jobs = this.gated(this.tx.jobs);
    this.idempotency = this.gated(new SqliteIdempotencyKeys(db));
  }

  /** `path` is a file path or `:memory:`. Migrations run before the store is returned. */
  static async open(path: string): Promise<SqliteStore> {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    return new SqliteStore(db);
  }

  async migrate(): Promise<void> {
    migrate(this.db);
  }

  async lock(): Promise<void> {
    throw new Error('lock() needs a transaction');
  }

  async nextId(sequence: string): Promise<number> {
    if (!this.locked) return this.sequences.next(sequence);
    await this.waitForLock();
    return this.sequences.next(sequence);
  }

  async transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
    this.openTransactions++;
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.locked = true;
    try {
      // Inside the try: a BEGIN that fails (another process holding the write lock past the busy
      // timeout) must still release the queue, or every later caller would wait forever.
      this.db.exec('BEGIN IMMEDIATE');
      const result = await work(this.tx);
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.locked = false;
      this.openTransactions--;
      release();
    }
  }

  stats(): StoreStats {
    return { dialect: 'sqlite', openTransactions: this.openTransactions, locked: this.locked };
  }

  private gated<T extends object>(repo: T): T {
    const gatedRepo = {} as Record<string, unknown>;
    const proto = Object.getPrototypeOf(repo) as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const fn = proto[name];
      if (name === 'constructor' || typeof fn !== 'function') continue;
      gatedRepo[name] = async (...args: unknown[]) => {
        if (this.locked) await this.waitForLock();
        return (fn as (...a: unknown[]) => unknown).apply(repo, args);
      };
    }
    return gatedRepo as T;
  }

  private async waitForLock(): Promise<void> {
    while (this.locked) await this.queue;
  }

  async wipe(): Promise<void> {
    await this.transaction(async () => {
      this.changes.emit({ type: 'all' });
      this.db.exec(`DELETE FROM api_keys; DELETE FROM resources; DELETE FROM jobs; DELETE FROM sequences; DELETE FROM accounts;
        DELETE FROM sqlite_sequence WHERE name IN ('accounts', 'api_keys', 'resources', 'jobs');`);
    });
  }

  async *dump(): AsyncIterable<DumpRecord> {
    await this.waitForLock();
    yield* dumpSqlite(this.db);
  }

  async load(records: AsyncIterable<DumpRecord>): Promise<number> {
    await this.waitForLock();
    this.changes.emit({ type: 'all' });
    try {
      return await loadSqlite(this.db, records);
    } finally {
      this.changes.emit({ type: 'all' });
    }
  }

  async close(): Promise<void> {
    await this.waitForLock();
    this.db.close();
  }
}

function migrate(db: Db): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Map(
    (db.prepare('SELECT version, checksum FROM schema_migrations').all() as { version: number; checksum: string }[]).map(
      (r) => [r.version, r.checksum],
    ),
  );
  for (const m of loadMigrations('sqlite')) {
    const seen = applied.get(m.version);
    if (seen !== undefined) {
      if (seen !== m.checksum) throw new Error(`migration ${m.name} was changed after it was applied`);
      continue;
    }
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)').run(
        m.version,
        m.name,
        m.checksum,
        new Date().toISOString(),
      );
    }).immediate();
  }
}
