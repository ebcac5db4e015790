/**
 * PostgreSQL store for several edgeplane instances on one database. A 2xx means the transaction
 * committed (synchronous_commit stays on). The pool is bounded, statements time out, and a
 * database that cannot be reached surfaces as a 503 with the part 7 body, never a hang; the pool
 * reconnects by itself when the database is back.
 */
import pg from 'pg';
import { StoreUnavailableError } from '../errors.js';
import { loadMigrations } from '../migrations.js';
import { wrapEachMethod } from '../each-method.js';
import { eachRepository, type Repositories, StoreRepositories } from '../repositories.js';
import type { CertificateAuthorityRecords, DumpRecord, HeldLock, IdempotencyKeys, Store, StoreStats, StoreTx } from '../types.js';
import { WIPED_TABLES } from '../wiped-tables.js';
import { PgAccessLog } from './access-log.js';
import { PgOriginErrors } from './origin-errors.js';
import { PgAccounts } from './accounts.js';
import { PgApiKeys } from './api-keys.js';
import { PgAuditLog } from './audit-log.js';
import { PgBillingRecords } from './billing-records.js';
import { PgCertificateAuthority } from './certificate-authority.js';
import { type ChangeSink, channelOf, newInstanceId, PgChangeFeed, TransactionChanges } from './changes.js';
import { PgDeadBlobs } from './dead-blobs.js';
import { PgDnsRecords } from './dns-records.js';
import { dumpPostgres, loadPostgres } from './dump.js';
import { PgFiles } from './files.js';
import { PgIdempotencyKeys } from './idempotency-keys.js';
import { PgJobs } from './jobs.js';
import type { Queryable } from './queryable.js';
import { PgDocuments } from './resources.js';
import { PgS3Uploads } from './s3-uploads.js';
import { PgSequences } from './sequences.js';
import { PgUsageCounters } from './usage-counters.js';

export interface PostgresOptions {
  url: string;
  /** Schema to work in (tests give each app its own); default: the server's search_path. */
  schema?: string;
  poolMax?: number;
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
}

const BIGINT = 20;
const NUMERIC = 1700;
// Ids and counts are bigint; every value edgeplane stores fits a JS number exactly.
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === BIGINT || oid === NUMERIC ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format ?? 'text'),
};

/** Errors that mean "the database is not there right now", as opposed to a bug or bad data. */
const UNAVAILABLE_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
]);
/** Serialization failure and deadlock: the transaction can simply run again. */
const RETRYABLE_CODES = new Set(['40001', '40P01']);

function isUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  if (e.code && UNAVAILABLE_CODES.has(e.code)) return true;
  return /timeout exceeded when trying to connect|Connection terminated|connection error|Client has encountered a connection error/i.test(e.message ?? '');
}

/** Wraps every call so an unreachable database becomes a 503 instead of a 500. */
function guard<T extends object>(repo: T): T {
  return wrapEachMethod(repo, (method) => async (...args: unknown[]) => {
    try {
      return await method.apply(repo, args);
    } catch (error) {
      throw isUnavailable(error) ? new StoreUnavailableError(error) : error;
    }
  });
}

/** Every repository on `db`: the pool, or the client of a transaction (`inTransaction`: its reads lock what they read to change). */
function repositories(db: Queryable, inTransaction: boolean, changes: ChangeSink): Repositories {
  return {
    accounts: new PgAccounts(db),
    apiKeys: new PgApiKeys(db, changes),
    docs: new PgDocuments(db, inTransaction, changes),
    jobs: new PgJobs(db),
    files: new PgFiles(db, inTransaction),
    deadBlobs: new PgDeadBlobs(db),
    usage: new PgUsageCounters(db),
    audit: new PgAuditLog(db),
    billing: new PgBillingRecords(db),
    dnsRecords: new PgDnsRecords(db),
    accessLog: new PgAccessLog(db),
    originErrors: new PgOriginErrors(db),
    s3Uploads: new PgS3Uploads(db),
  };
}

export class PostgresStore extends StoreRepositories implements Store {
  readonly dialect = 'postgres' as const;
  readonly idempotency: IdempotencyKeys;
  readonly certificateAuthority: CertificateAuthorityRecords;
  private readonly sequences: PgSequences;

  private constructor(
    private readonly pool: pg.Pool,
    connectOne: () => Promise<pg.Client>,
    readonly changes: PgChangeFeed,
  ) {
    super(eachRepository(repositories(pool as Queryable, false, changes), (_name, repo) => guard(repo)));
    this.idempotency = guard(new PgIdempotencyKeys(pool as Queryable));
    this.certificateAuthority = guard(new PgCertificateAuthority(pool as Queryable));
    this.sequences = new PgSequences(connectOne as () => Promise<Queryable & { end(): Promise<void> }>);
    // A wipe or an import (here or by another instance) moves the sequences under the drawn ids.
    changes.subscribe((change) => {
      if (change.type === 'all') this.sequences.forget();
    });
  }

  static async open(options: PostgresOptions): Promise<PostgresStore> {
    const instance = newInstanceId();
    // `edgeplane.instance` names this instance's writes in the change announcements (migration 0004).
    const settings = [`-c statement_timeout=${options.statementTimeoutMs ?? 5000}`, `-c edgeplane.instance=${instance}`];
    // Keep server options given in the URL (`?options=-c search_path=...`): ours would replace them.
    const fromUrl = new URL(options.url).searchParams.get('options');
    if (fromUrl) settings.push(fromUrl);
    if (options.schema) settings.push(`-c search_path=${options.schema}`);
    const connection = {
      connectionString: options.url,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      options: settings.join(' '),
      types,
    };
    const pool = new pg.Pool({ ...connection, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 });
    // An idle client losing its connection (database restart) must not crash the process.
    pool.on('error', () => {});
    const connectOne = async () => {
      const client = new pg.Client(connection);
      client.on('error', () => {});
      await client.connect();
      return client;
    };
    const listenerConnection = async () => {
      const client = new pg.Client({ ...connection, keepAlive: true, application_name: `edgeplane-feed-${instance}` });
      client.on('error', () => {});
      await client.connect();
      return client;
    };
    let schema = options.schema;
    try {
      schema ??= (await pool.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]!.schema;
    } catch (error) {
      await pool.end();
      throw error;
    }
    const changes = new PgChangeFeed(listenerConnection, channelOf(schema), instance);
    const store = new PostgresStore(pool, connectOne, changes);
    try {
      await store.migrate();
      await store.sequences.learnExisting(pool as Queryable);
      await changes.start();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async nextId(sequence: string): Promise<number> {
    try {
      return await this.sequences.next(this.pool as Queryable, sequence);
    } catch (error) {
      throw isUnavailable(error) ? new StoreUnavailableError(error) : error;
    }
  }

  async nextIds(sequence: string, count: number): Promise<number[]> {
    try {
      return await this.sequences.nextMany(this.pool as Queryable, sequence, count);
    } catch (error) {
      throw isUnavailable(error) ? new StoreUnavailableError(error) : error;
    }
  }

  async transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        throw isUnavailable(error) ? new StoreUnavailableError(error) : error;
      }
      let broken = false;
      try {
        await client.query('BEGIN');
        const changes = new TransactionChanges(this.changes);
        const committed: (() => void)[] = [];
        const tx: StoreTx = {
          ...repositories(client as Queryable, true, changes),
          afterCommit: (fn) => committed.push(fn),
          nextId: (name) => this.sequences.next(client as Queryable, name),
          nextIds: (name, count) => this.sequences.nextMany(client as Queryable, name, count),
          lock: async (name) => {
            await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
          },
        };
        const result = await work(tx);
        await client.query('COMMIT');
        changes.committed();
        for (const fn of committed) fn();
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        const code = (error as { code?: string }).code;
        if (code && RETRYABLE_CODES.has(code) && attempt < 5) continue;
        if (isUnavailable(error)) {
          broken = true;
          throw new StoreUnavailableError(error);
        }
        throw error;
      } finally {
        client.release(broken);
      }
    }
  }

  private readonly heldLocks = new Set<HeldLock>();

  async holdLock(name: string): Promise<HeldLock | undefined> {
    const client = await this.pool.connect();
    let held = false;
    try {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [`held:${name}`]);
      held = rows[0]?.ok === true;
    } catch (error) {
      client.release(true);
      throw error;
    }
    if (!held) {
      client.release();
      return undefined;
    }
    // The lock lives as long as this connection: a broken one has lost it (and is not pooled again).
    const lost = () => {
      held = false;
    };
    client.on('error', lost);
    let released = false;
    const lock: HeldLock = {
      held: () => held,
      release: async () => {
        if (released) return;
        released = true;
        this.heldLocks.delete(lock);
        client.off('error', lost);
        if (!held) return client.release(true);
        held = false;
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`held:${name}`]).then(
          () => client.release(),
          () => client.release(true),
        );
      },
    };
    this.heldLocks.add(lock);
    return lock;
  }

  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      // One instance migrates at a time; the others wait here, then find nothing left to do.
      await client.query('SELECT pg_advisory_lock(7201)');
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      const applied = new Map(
        (await client.query<{ version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations')).rows.map((r) => [r.version, r.checksum]),
      );
      for (const m of loadMigrations('postgres')) {
        const seen = applied.get(m.version);
        if (seen !== undefined) {
          if (seen !== m.checksum) throw new Error(`migration ${m.name} was changed after it was applied`);
          continue;
        }
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)', [
            m.version,
            m.name,
            m.checksum,
            new Date().toISOString(),
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(7201)').catch(() => {});
      client.release();
    }
  }

  async wipe(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`TRUNCATE ${WIPED_TABLES.join(', ')} RESTART IDENTITY CASCADE`);
      const seqs = await client.query<{ sequencename: string }>(
        `SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema() AND sequencename LIKE 'seq\\_%'`,
      );
      for (const s of seqs.rows) await client.query(`ALTER SEQUENCE ${s.sequencename} RESTART`);
      await client.query('COMMIT');
      this.changes.emit({ type: 'all' });
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }

  dump(): AsyncIterable<DumpRecord> {
    return dumpPostgres(this.pool);
  }

  async load(records: AsyncIterable<DumpRecord>): Promise<number> {
    const n = await loadPostgres(this.pool, this.sequences, records);
    this.changes.emit({ type: 'all' });
    return n;
  }

  stats(): StoreStats {
    return { dialect: 'postgres', poolTotal: this.pool.totalCount, poolIdle: this.pool.idleCount, poolWaiting: this.pool.waitingCount };
  }

  async close(): Promise<void> {
    await this.changes.close();
    // Held locks keep their connections out of the pool, which would wait for them forever.
    for (const lock of [...this.heldLocks]) await lock.release();
    await this.pool.end();
  }
}
