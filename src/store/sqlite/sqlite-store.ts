/**
 * SQLite store on better-sqlite3, with a write-ahead log (WAL). A transaction is answered only once
 * the log holding its commit is synced to disk, so whatever was acknowledged survives a crash or a
 * power loss: batches commit with `synchronous = NORMAL` and then sync the log with fdatasync on the
 * thread pool (the event loop goes on meanwhile); anything else commits with `synchronous = FULL`.
 * (NORMAL still syncs around checkpoints, which is what keeps a log reused after one safe.)
 *
 * better-sqlite3 is synchronous, but the Store interface is async (PostgreSQL needs it). Transactions
 * run one at a time, and transactions that follow each other share one COMMIT and one sync: see
 * group-commit.ts, which also keeps every caller outside a transaction waiting while one runs. This
 * file assembles the store: the repositories, a file per table, served through that lock.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadMigrations } from '../migrations.js';
import { eachRepository, type Repositories, StoreRepositories } from '../repositories.js';
import type { CertificateAuthorityRecords, DumpRecord, Durability, HeldLock, IdempotencyKeys, Store, StoreTx } from '../types.js';
import { WIPED_TABLES } from '../wiped-tables.js';
import { SqliteAccessLog } from './access-log.js';
import { SqliteOriginErrors } from './origin-errors.js';
import { SqliteAccounts } from './accounts.js';
import { SqliteApiKeys } from './api-keys.js';
import { SqliteAuditLog } from './audit-log.js';
import { SqliteBillingRecords } from './billing-records.js';
import { SqliteCertificateAuthority } from './certificate-authority.js';
import { SqliteChangeFeed } from './changes.js';
import { SqliteDeadBlobs } from './dead-blobs.js';
import { SqliteDnsRecords } from './dns-records.js';
import { dumpSqlite, loadSqlite } from './dump.js';
import { SqliteFiles } from './files.js';
import { GroupCommit, type SqliteStats } from './group-commit.js';
import { SqliteIdempotencyKeys } from './idempotency-keys.js';
import { SqliteJobs } from './jobs.js';
import { SqliteDocuments } from './resources.js';
import { SqliteS3Uploads } from './s3-uploads.js';
import { SqliteSequences } from './sequences.js';
import { SqliteUsageCounters } from './usage-counters.js';

export type { SqliteStats } from './group-commit.js';

type Db = Database.Database;

/**
 * Writes the background machinery makes outside a transaction (the job runner's leases, completions
 * and retries; the file sweeper's forgotten blobs) commit as batch transactions: as single
 * statements each would commit with its own sync, on the event loop, holding up every request.
 * They stay durable before they resolve. Every other call outside a transaction waits while one is
 * open (or its batch uncommitted) instead of reading its uncommitted rows.
 */
const BATCHED_WRITES: { [K in keyof Repositories]?: readonly (keyof Repositories[K])[] } = {
  jobs: ['enqueue', 'claimDue', 'complete', 'retry', 'cancel'],
  deadBlobs: ['add', 'forget'],
};
/** A request's idempotency claim and its recorded answer commit as batch transactions too (see BATCHED_WRITES). */
const IDEMPOTENCY_WRITES: readonly (keyof IdempotencyKeys)[] = ['claim', 'complete', 'release', 'purge'];

export class SqliteStore extends StoreRepositories implements Store {
  readonly dialect = 'sqlite' as const;
  readonly idempotency: IdempotencyKeys;
  readonly certificateAuthority: CertificateAuthorityRecords;
  private readonly tx: StoreTx;

  private constructor(
    private readonly db: Db,
    private readonly group: GroupCommit,
    readonly changes: SqliteChangeFeed,
    private readonly sequences: SqliteSequences,
    repos: Repositories,
  ) {
    super(eachRepository(repos, (name, repo) => (BATCHED_WRITES[name] ? group.batched(repo, BATCHED_WRITES[name]) : group.gated(repo))));
    this.tx = {
      ...repos,
      nextId: async (name) => this.sequences.next(name),
      nextIds: async (name, count) => this.sequences.nextMany(name, count),
      lock: async () => {},
      afterCommit: (fn) => this.group.afterCommit(fn),
    };
    this.idempotency = group.batched(new SqliteIdempotencyKeys(db), IDEMPOTENCY_WRITES);
    this.certificateAuthority = group.gated(new SqliteCertificateAuthority(db));
  }

  /** `path` is a file path or `:memory:`. Migrations run before the store is returned. */
  static async open(path: string): Promise<SqliteStore> {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // 64 MiB of pages (SQLite's default is 2 MiB): with a million pull zones the indexes alone are
    // larger than that, and a lookup that misses the cache pays a read system call per page.
    db.pragma('cache_size = -65536');
    migrate(db);
    const changes = new SqliteChangeFeed(db);
    const repos: Repositories = {
      accounts: new SqliteAccounts(db),
      apiKeys: new SqliteApiKeys(db, changes),
      docs: new SqliteDocuments(db, changes),
      jobs: new SqliteJobs(db),
      files: new SqliteFiles(db),
      deadBlobs: new SqliteDeadBlobs(db),
      usage: new SqliteUsageCounters(db),
      audit: new SqliteAuditLog(db),
      billing: new SqliteBillingRecords(db),
      dnsRecords: new SqliteDnsRecords(db),
      accessLog: new SqliteAccessLog(db),
      originErrors: new SqliteOriginErrors(db),
      s3Uploads: new SqliteS3Uploads(db),
    };
    return new SqliteStore(db, new GroupCommit(db, path), changes, new SqliteSequences(db), repos);
  }

  async migrate(): Promise<void> {
    migrate(this.db);
  }

  async nextId(sequence: string): Promise<number> {
    return this.group.whenUnlocked(() => this.sequences.next(sequence));
  }

  async nextIds(sequence: string, count: number): Promise<number[]> {
    return this.group.whenUnlocked(() => this.sequences.nextMany(sequence, count));
  }

  transaction<T>(work: (tx: StoreTx) => Promise<T>, durability?: Durability): Promise<T> {
    return this.group.transaction(() => work(this.tx), durability);
  }

  stats(): SqliteStats {
    return { dialect: 'sqlite', ...this.group.stats() };
  }

  async wipe(): Promise<void> {
    await this.transaction(async () => {
      this.changes.emit({ type: 'all' });
      // Files go with their zones; their blobs become garbage for the files backend's sweep.
      this.db.exec(WIPED_TABLES.map((table) => `DELETE FROM ${table};`).join(' '));
      this.db.prepare(`DELETE FROM sqlite_sequence WHERE name IN (${WIPED_TABLES.map(() => '?').join(', ')})`).run(...WIPED_TABLES);
    });
  }

  async *dump(): AsyncIterable<DumpRecord> {
    await this.group.whenUnlocked(() => undefined);
    yield* dumpSqlite(this.db);
  }

  async load(records: AsyncIterable<DumpRecord>): Promise<number> {
    await this.group.whenUnlocked(() => undefined);
    this.changes.emit({ type: 'all' });
    try {
      return await loadSqlite(this.db, records);
    } finally {
      this.changes.emit({ type: 'all' });
    }
  }

  /** Waits for the open batch to commit: its callers are owed an answer, and it must be durable. */
  async holdLock(_name: string): Promise<HeldLock> {
    let held = true;
    return {
      held: () => held,
      release: async () => {
        held = false;
      },
    };
  }

  async close(): Promise<void> {
    await this.group.whenUnlocked(() => {
      this.db.close();
      this.group.closeLog();
    });
  }
}

function migrate(db: Db): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Map(
    (db.prepare('SELECT version, checksum FROM schema_migrations').all() as { version: number; checksum: string }[]).map((r) => [r.version, r.checksum]),
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
