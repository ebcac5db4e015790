/** The store itself: a unit of work (StoreTx), and the Store that runs them. */
import type { AccessLog } from './access-log.js';
import type { OriginErrors } from './origin-errors.js';
import type { AuditLog, BillingRecords } from './account-records.js';
import type { Accounts, ApiKeys } from './accounts.js';
import type { CertificateAuthorityRecords } from './certificates.js';
import type { ChangeFeed } from './changes.js';
import type { DnsRecordRows } from './dns-records.js';
import type { DumpRecord } from './dump.js';
import type { DeadBlobs, Files } from './files.js';
import type { IdempotencyKeys } from './idempotency.js';
import type { Jobs } from './jobs.js';
import type { Documents } from './resources.js';
import type { S3Uploads } from './s3-uploads.js';
import type { UsageCounters } from './usage.js';

/** What a unit of work can touch. */
export interface StoreTx {
  accounts: Accounts;
  apiKeys: ApiKeys;
  docs: Documents;
  jobs: Jobs;
  files: Files;
  deadBlobs: DeadBlobs;
  usage: UsageCounters;
  audit: AuditLog;
  billing: BillingRecords;
  dnsRecords: DnsRecordRows;
  accessLog: AccessLog;
  originErrors: OriginErrors;
  s3Uploads: S3Uploads;
  /**
   * Holds an exclusive lock named `name` until the transaction ends, for decisions that span rows
   * ("is the store empty?"). SQLite transactions are already serialized, so there it is free.
   */
  lock(name: string): Promise<void>;
  /** Next integer id of a sequence (one per resource kind, plus hostnames, edge rules...). */
  nextId(sequence: string): Promise<number>;
  /** `count` new ids of a sequence, ascending, in one step (for imports that add thousands). */
  nextIds(sequence: string, count: number): Promise<number[]>;
  /**
   * Runs `fn` once the transaction has committed (durably), before its client is answered; never if
   * it rolls back. Outside a transaction, at once. For in-memory views that must show a write as
   * soon as it is acknowledged (the DNS plane's zones).
   */
  afterCommit(fn: () => void): void;
}

/**
 * What a caller waits for before it answers: an API write request collects the durability of its
 * transactions and answers once all of it is done, so everything it writes — the operation, then its
 * audit entry — can share one group commit and one disk sync instead of one each.
 */
export interface Durability {
  add(durable: Promise<void>): void;
  /**
   * Called by the store, synchronously, the moment a write handed in here is known never to be
   * durable (its batch's COMMIT or sync failed) — before any later transaction runs, so what the
   * request writes next (its audit entry) can leave out a write that was lost.
   */
  markLost(): void;
  /** A write handed in here was lost (see markLost). */
  readonly lost: boolean;
}

export interface Store extends StoreTx {
  readonly dialect: 'sqlite' | 'postgres';
  readonly certificateAuthority: CertificateAuthorityRecords;
  readonly idempotency: IdempotencyKeys;
  /** What changed, so in-process caches stay correct (see ChangeFeed). */
  readonly changes: ChangeFeed;
  /**
   * Runs `work` atomically: all of its writes commit together, or none do. Resolves once they are
   * durable — or, given a `durability`, as soon as what runs next sees them, handing it the promise
   * of their durability (SQLite; PostgreSQL commits before it resolves either way).
   */
  transaction<T>(work: (tx: StoreTx) => Promise<T>, durability?: Durability): Promise<T>;
  migrate(): Promise<void>;
  /**
   * Takes the exclusive lock `name` for as long as the caller holds it, across transactions, if no
   * one else holds it (undefined then): one instance among several does a job (the container
   * supervisor). On PostgreSQL a session advisory lock on a connection of its own, lost with that
   * connection; on SQLite, whose file one server serves, always granted.
   */
  holdLock(name: string): Promise<HeldLock | undefined>;
  close(): Promise<void>;
  /** Deletes every row and restarts every id sequence: a store as new. */
  wipe(): Promise<void>;
  /** Every row, in an order `load` can replay (accounts before what they own). */
  dump(): AsyncIterable<DumpRecord>;
  /** Replays a dump into this store, which must be empty; all or nothing. */
  load(records: AsyncIterable<DumpRecord>): Promise<number>;
  /** Live figures for the operator's metrics; cheap, no query. */
  stats(): StoreStats;
}

export type StoreStats =
  /** `openTransactions` counts those not yet answered: running, waiting for the write lock, or for their batch's COMMIT. */
  | { dialect: 'sqlite'; openTransactions: number; locked: boolean }
  /** Connections open, idle ones among them, and callers waiting for one. */
  | { dialect: 'postgres'; poolTotal: number; poolIdle: number; poolWaiting: number };

/** A lock taken by Store.holdLock. */
export interface HeldLock {
  /** False once the lock is released or its connection was lost. */
  held(): boolean;
  release(): Promise<void>;
}
