/**
 * The SQLite store's write lock and its group commit (see sqlite-store.ts for durability).
 *
 * better-sqlite3 is synchronous, but the Store interface is async (PostgreSQL needs it). Transactions
 * run one at a time; while one runs, its body may await, and a lock keeps every caller outside a
 * transaction waiting, so no one ever reads another request's uncommitted writes.
 *
 * Group commit: the fsync is a large part of a write, and the disk can sync far more often than one
 * commit at a time allows, so transactions that follow each other share one COMMIT. The first of a
 * batch opens it (BEGIN IMMEDIATE) and each one runs in its own SAVEPOINT, so one that fails is undone
 * and rejected alone. One that succeeds is not answered yet: the batch commits once no transaction is
 * queued behind it (a turn of the event loop later, so requests already readable join it) or when it
 * reaches its bounds, and only then are its callers answered — all of them rejected if COMMIT fails.
 * So a resolved transaction is always a durable one, and a transaction that read an earlier one's
 * writes is answered by the same COMMIT that makes them durable. (A caller that waits for durability
 * itself — an API write, before it answers — passes a `Durability`: its transaction resolves once
 * its savepoint is released and hands over the batch's commit instead, so what the request writes
 * next, its audit entry, joins the same batch and the same sync.) The lock is held until that COMMIT
 * and its sync are done: reads outside a transaction see only committed rows, and writes outside one
 * (each its own commit) never land inside a batch that could still be lost.
 */
import type Database from 'better-sqlite3';
import { closeSync, fdatasync, openSync } from 'node:fs';
import { type Method, wrapEachMethod } from '../each-method.js';
import type { Durability, StoreStats } from '../types.js';

/** `commits`: COMMITs run by this process, one per batch; `syncs`: the log syncs after them (for tests and diagnosis). */
export type SqliteStats = Extract<StoreStats, { dialect: 'sqlite' }> & { commits: number; syncs: number };

/**
 * Bounds of a batch. Its first caller waits for the last one, so a batch is closed after 10 ms even
 * while transactions keep coming: at the disk's ~0.3 ms per sync, sharing one sync among everything
 * that runs in 10 ms already removes nearly all of its cost, and a longer batch would only add
 * latency. 256 caps what one failed COMMIT can take down and the results held meanwhile; it matters
 * only for transactions cheap enough to run 256 in under 10 ms. Both are checked as a transaction
 * ends: a batch cannot commit halfway through one, so a slow one still delays its batch.
 */
const MAX_BATCH_TRANSACTIONS = 256;
const MAX_BATCH_MS = 10;

/** A transaction whose writes are in the open batch: answered when the batch commits. */
interface BatchMember {
  result: unknown;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** What the transaction asked to run once it is durable (StoreTx.afterCommit). */
  committed: (() => void)[];
  /** The caller's, told at once when the batch is lost. */
  durability: Durability | undefined;
}

export class GroupCommit {
  /** Transactions waiting for the one running to finish, in arrival order. */
  private readonly turns: (() => void)[] = [];
  /** A transaction's work is running (or its turn was just handed to it). */
  private running = false;
  /** BEGIN has run and the batch has neither committed nor rolled back. */
  private batchOpen = false;
  private batchStartedAt = 0;
  private batch: BatchMember[] = [];
  private flushScheduled = false;
  /** Callers outside a transaction waiting for the lock; run the moment it is released. */
  private readonly lockWaiters: (() => void)[] = [];
  private openTransactions = 0;
  /** A batch has committed and its log sync is running: the store stays locked until it ends. */
  private syncing = false;
  private walFd: number | undefined;
  /** afterCommit callbacks of the transaction running now. */
  private turnCommitted: (() => void)[] = [];
  private commits = 0;
  private syncs = 0;
  /** The connection's row changes (SQLite's total_changes()) when the open batch began. */
  private changesAtBegin = 0;
  /** Every write runs these: prepared once rather than parsed by `exec` each time. */
  private readonly control: Record<'begin' | 'savepoint' | 'release' | 'commit' | 'commitWithSync' | 'commitWithoutSync' | 'totalChanges', Database.Statement>;

  /** `path`: the database's file (its log is `${path}-wal`), or `:memory:`. */
  constructor(
    private readonly db: Database.Database,
    private readonly path: string,
  ) {
    this.control = {
      // Writes outside a batch (rare: each its own commit) sync inside COMMIT, as SQLite does by
      // default; a batch's COMMIT does not, and its log is synced afterwards (commitBatch).
      commitWithSync: db.prepare('PRAGMA synchronous = FULL'),
      commitWithoutSync: db.prepare('PRAGMA synchronous = NORMAL'),
      begin: db.prepare('BEGIN IMMEDIATE'),
      savepoint: db.prepare('SAVEPOINT edgeplane_tx'),
      release: db.prepare('RELEASE edgeplane_tx'),
      commit: db.prepare('COMMIT'),
      totalChanges: db.prepare('SELECT total_changes()').pluck(),
    };
  }

  /** Runs `work` as a transaction of the open batch (see Store.transaction for `durability`). */
  async transaction<T>(work: () => Promise<T>, durability?: Durability): Promise<T> {
    this.openTransactions++;
    try {
      await this.takeTurn();
      const { result, committed } = await this.runTurn(work, durability);
      if (!durability) return (await committed) as T;
      durability.add(committed.then(() => undefined));
      return result as T;
    } finally {
      this.openTransactions--;
    }
  }

  stats(): Omit<SqliteStats, 'dialect'> {
    return { openTransactions: this.openTransactions, locked: this.locked, commits: this.commits, syncs: this.syncs };
  }

  /** Runs `fn` once the running transaction is durable (StoreTx.afterCommit). */
  afterCommit(fn: () => void): void {
    this.turnCommitted.push(fn);
  }

  /** Closes the log's descriptor (the store closes the database). */
  closeLog(): void {
    if (this.walFd !== undefined) closeSync(this.walFd);
    this.walFd = undefined;
  }

  private get locked(): boolean {
    return this.running || this.batchOpen || this.syncing;
  }

  private takeTurn(): Promise<void> | undefined {
    if (!this.running && !this.syncing && this.turns.length === 0) {
      this.running = true;
      return undefined;
    }
    return new Promise<void>((resolve) => this.turns.push(resolve));
  }

  /** Runs `work` in its own savepoint of the batch: its result, and the batch's commit (with the result). */
  private async runTurn(work: () => Promise<unknown>, durability: Durability | undefined): Promise<{ result: unknown; committed: Promise<unknown> }> {
    try {
      // Inside the try: a BEGIN that fails (another process holding the write lock past the busy
      // timeout) must still end this turn, or every later caller would wait forever.
      if (!this.batchOpen) {
        // The batch's COMMIT does not sync; commitBatch syncs the log off the event loop instead.
        this.control.commitWithoutSync.run();
        this.control.begin.run();
        this.changesAtBegin = this.control.totalChanges.get() as number;
        this.batchOpen = true;
        this.batchStartedAt = performance.now();
      }
      this.control.savepoint.run();
    } catch (error) {
      this.endTurn();
      throw error;
    }
    let result: unknown;
    this.turnCommitted = [];
    try {
      result = await work();
      this.control.release.run();
    } catch (error) {
      this.turnCommitted = [];
      this.undoTurn(error);
      this.endTurn();
      throw error;
    }
    const callbacks = this.turnCommitted;
    this.turnCommitted = [];
    const committed = new Promise<unknown>((resolve, reject) => this.batch.push({ result, resolve, reject, committed: callbacks, durability }));
    this.endTurn();
    return { result, committed };
  }

  private undoTurn(error: unknown): void {
    // Some errors (I/O, disk full) make SQLite roll back the whole transaction, taking the earlier
    // members' writes with it: they must not be reported as committed.
    if (!this.db.inTransaction) {
      this.abortBatch(error);
      return;
    }
    try {
      this.db.exec('ROLLBACK TO edgeplane_tx; RELEASE edgeplane_tx');
    } catch (rollbackError) {
      this.abortBatch(rollbackError);
    }
  }

  /** The running transaction is done: hand the turn on, or commit, or wait a turn for more. */
  private endTurn(): void {
    this.running = false;
    if (this.batchOpen) {
      const full = this.batch.length >= MAX_BATCH_TRANSACTIONS || performance.now() - this.batchStartedAt >= MAX_BATCH_MS;
      if (!full && this.turns.length > 0) {
        this.handTurn();
        return;
      }
      if (!full && this.batch.length > 0) {
        this.scheduleFlush();
        return;
      }
      this.commitBatch(() => this.releaseLock());
      return;
    }
    this.releaseLock();
  }

  /**
   * Commits a turn of the event loop later rather than now: requests whose input is already waiting
   * in this poll phase reach their transaction before the check phase, and join this batch.
   */
  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      // A transaction that joined meanwhile is still running: its end commits or reschedules.
      if (this.running || !this.batchOpen) return;
      this.commitBatch(() => this.releaseLock());
    });
  }

  /**
   * Commits the batch, then makes it durable by syncing the write-ahead log on the thread pool
   * (fdatasync) instead of inside COMMIT, which would hold the event loop for the whole sync. Until
   * the sync is done the store stays locked and no member is answered: a 2xx still means on disk,
   * and nothing else reads the batch's rows before they are. `done` runs once it is all over.
   */
  private commitBatch(done: () => void): void {
    const members = this.batch;
    this.batch = [];
    this.batchOpen = false;
    try {
      // Every member failed: nothing to keep, and nothing to sync.
      if (members.length === 0) {
        this.db.exec('ROLLBACK');
        this.control.commitWithSync.run();
        done();
        return;
      }
      this.control.commit.run();
      this.commits++;
      this.control.commitWithSync.run();
    } catch (error) {
      this.rollbackQuietly();
      for (const m of members) lose(m, error);
      done();
      return;
    }
    // A batch that changed no row (a job poll that found nothing due) wrote nothing to the log: no sync to wait for.
    const log = this.control.totalChanges.get() === this.changesAtBegin ? undefined : this.writeAheadLog();
    if (log === undefined) {
      for (const m of members) answer(m);
      done();
      return;
    }
    this.syncing = true;
    this.syncs++;
    fdatasync(log, (error) => {
      this.syncing = false;
      if (error) for (const m of members) lose(m, error);
      else for (const m of members) answer(m);
      done();
    });
  }

  /** The write-ahead log's descriptor, opened once it exists; undefined for an in-memory database. */
  private writeAheadLog(): number | undefined {
    if (this.path === ':memory:') return undefined;
    if (this.walFd === undefined) {
      try {
        this.walFd = openSync(`${this.path}-wal`, 'r');
      } catch (error) {
        // No log yet means nothing was written: nothing to sync.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    }
    return this.walFd;
  }

  private abortBatch(error: unknown): void {
    const members = this.batch;
    this.batch = [];
    this.batchOpen = false;
    this.rollbackQuietly();
    for (const m of members) lose(m, error);
  }

  private rollbackQuietly(): void {
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.control.commitWithSync.run();
    } catch {
      // The error that brought us here is the one reported; SQLite may already have rolled back.
    }
  }

  /** Callers outside transactions go first, so a steady stream of transactions cannot starve them. */
  private releaseLock(): void {
    for (const run of this.lockWaiters.splice(0)) run();
    if (!this.running && this.turns.length > 0) this.handTurn();
  }

  private handTurn(): void {
    this.running = true;
    this.turns.shift()!();
  }

  /**
   * Runs `run` now if no transaction holds the lock, else synchronously at its release, before the
   * next transaction can begin: what it reads is committed, and what it writes is its own commit.
   */
  whenUnlocked<R>(run: () => R | Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const attempt = () => {
        try {
          resolve(run());
        } catch (error) {
          reject(error);
        }
      };
      if (this.locked) this.lockWaiters.push(attempt);
      else attempt();
    });
  }

  /** `gated`, with the methods named in `writes` run as transactions of their own (answered once durable). */
  batched<T extends object>(repo: T, writes: readonly string[]): T {
    const gated = this.gated(repo) as Record<string, Method>;
    return wrapEachMethod(repo, (method, name) =>
      (writes as readonly string[]).includes(name)
        ? (...args: unknown[]) => this.transaction(() => method.apply(repo, args) as Promise<unknown>)
        : gated[name]!,
    );
  }

  /** `repo` with each call run outside any transaction: at once, or when the one running ends (see whenUnlocked). */
  gated<T extends object>(repo: T): T {
    return wrapEachMethod(
      repo,
      (method) =>
        (...args: unknown[]) =>
          this.whenUnlocked(() => method.apply(repo, args)),
    );
  }
}

/** A durable member: what it asked to run on commit runs before it is answered. */
/** A member whose batch will never be durable: its caller's durability learns it before the store is unlocked. */
function lose(member: BatchMember, error: unknown): void {
  member.durability?.markLost();
  member.reject(error);
}

function answer(member: BatchMember): void {
  for (const fn of member.committed) fn();
  member.resolve(member.result);
}
