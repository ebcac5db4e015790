/**
 * Group commit in the SQLite store: transactions that follow each other share one COMMIT, yet a
 * caller is answered only once its writes are durable. "Durable" is checked the way another process
 * would see it: through a second, independent connection to the same file, which can only read
 * committed rows. SQLite only; the crash test (crash.test.ts) covers a process killed mid-batch.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

let dir: string;
let file: string;
let store: SqliteStore;
/** Another connection, as another process has: it sees committed rows only. */
let other: Database.Database;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-group-commit-'));
  file = join(dir, 'db.sqlite');
  store = await SqliteStore.open(file);
  other = new Database(file);
});
afterEach(async () => {
  other.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const committedAccounts = (name: string): number => (other.prepare('SELECT count(*) AS n FROM accounts WHERE name = ?').get(name) as { n: number }).n;
const committedAccountTotal = (): number => (other.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n;
const createAccount = (name: string) => store.transaction((tx) => tx.accounts.create(name, 0, new Date()));

/** A Durability that keeps what it is handed, as an API write request's does. */
function collecting() {
  const pending: Promise<void>[] = [];
  const durability = {
    lost: false,
    add: (durable: Promise<void>) => void pending.push(durable),
    markLost() {
      durability.lost = true;
    },
  };
  return { pending, durability };
}

describe('SQLite group commit', () => {
  it('answers concurrent transactions only once their writes are committed, sharing COMMITs', async () => {
    const commitsBefore = store.stats().commits;
    const seenOnResolve: number[] = [];
    const all = Array.from({ length: 50 }, (_, i) =>
      createAccount(`a${i}`).then((account) => {
        // Checked synchronously as each caller is answered: nothing can commit in between.
        seenOnResolve.push(committedAccounts(`a${i}`));
        return account;
      }),
    );
    expect(store.stats()).toMatchObject({ openTransactions: 50, locked: true });

    const accounts = await Promise.all(all);
    expect(new Set(accounts.map((a) => a.id)).size).toBe(50);
    expect(seenOnResolve).toEqual(Array(50).fill(1));
    const commits = store.stats().commits - commitsBefore;
    expect(commits).toBeGreaterThan(0);
    // One COMMIT per transaction would be 50: fewer means they were batched.
    expect(commits).toBeLessThan(50);
    expect(store.stats()).toMatchObject({ openTransactions: 0, locked: false });
  });

  it('rejects a failing transaction alone: its writes are undone, the rest of the batch commits', async () => {
    const owner = await createAccount('owner');
    await store.transaction((tx) =>
      tx.apiKeys.create({ accountId: owner.id, kind: 'personal', roles: [], lookupHash: 'taken', sealedKey: 's', createdAt: new Date().toISOString() }),
    );

    const results = await Promise.allSettled(
      Array.from({ length: 21 }, (_, i) =>
        store.transaction(async (tx) => {
          const account = await tx.accounts.create(`b${i}`, 0, new Date());
          if (i === 7) throw new Error('work failed after writing');
          // A SQL error after a write: the unique lookup hash is taken.
          if (i === 13) await tx.apiKeys.create({ accountId: account.id, kind: 'personal', roles: [], lookupHash: 'taken', sealedKey: 's', createdAt: '' });
          return account.id;
        }),
      ),
    );

    results.forEach((r, i) => {
      if (i === 7) expect(r).toMatchObject({ status: 'rejected', reason: { message: 'work failed after writing' } });
      else if (i === 13) expect(r).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_CONSTRAINT_UNIQUE' } });
      else expect(r.status).toBe('fulfilled');
      expect(committedAccounts(`b${i}`), `b${i}`).toBe(i === 7 || i === 13 ? 0 : 1);
    });
    expect(await store.accounts.count()).toBe(1 + 19);
    expect(store.stats()).toMatchObject({ openTransactions: 0, locked: false });
  });

  it('holds reads outside a transaction until the batch has committed', async () => {
    let read: Promise<{ n: number; committed: number }> | undefined;
    let issuedWhile: { committed: number; locked: boolean } | undefined;
    const first = createAccount('c0');
    const second = store.transaction(async (tx) => {
      const account = await tx.accounts.create('c1', 0, new Date());
      // Runs once the microtasks drain: after this work has ended and joined the batch, before the
      // batch commits (a turn of the event loop later).
      process.nextTick(() => {
        issuedWhile = { committed: committedAccountTotal(), locked: store.stats().locked };
        read = store.accounts.count().then((n) => ({ n, committed: committedAccountTotal() }));
      });
      return account;
    });

    await Promise.all([first, second]);
    expect(issuedWhile).toEqual({ committed: 0, locked: true });
    // When the read answers, both rows are committed: it read nothing that could still be lost.
    expect(await read).toEqual({ n: 2, committed: 2 });
  });

  it('runs a write outside a transaction after the batch, as its own commit', async () => {
    const batch = createAccount('d0');
    const next = store.nextId('outside').then((id) => ({ id, committed: other.prepare("SELECT last FROM sequences WHERE name = 'outside'").pluck().get() }));
    const [account, sequence] = await Promise.all([batch, next]);
    expect(sequence).toEqual({ id: 1, committed: 1 });
    expect(committedAccounts(account.name)).toBe(1);
  });

  it('syncs the log after a batch that changed rows, and not after one that changed none', async () => {
    const syncs = () => store.stats().syncs;
    const before = syncs();
    await Promise.all([createAccount('s0'), createAccount('s1')]);
    expect(syncs() - before).toBe(1);
    expect(committedAccounts('s1')).toBe(1);

    const afterWrites = syncs();
    // Reads, and an update that matches nothing (a job poll with nothing due): nothing was written.
    const read = await store.transaction(async (tx) => {
      expect(await tx.jobs.claimDue(0, 10, 'worker', 60_000)).toEqual([]);
      return tx.accounts.list();
    });
    expect(read.map((a) => a.name)).toEqual(expect.arrayContaining(['s0', 's1']));
    expect(syncs()).toBe(afterWrites);
  });

  it('commits an idempotency claim and a recorded answer in batches (synced off the event loop), durable when answered', async () => {
    const account = await createAccount('i0');
    const claim = { accountId: account.id, key: 'k1', fingerprint: 'f', now: 1_000, completedBefore: 0, inFlightBefore: 0 };
    const before = store.stats();
    expect(await store.idempotency.claim(claim)).toBe(true);
    const claimed = store.stats();
    expect([claimed.commits - before.commits, claimed.syncs - before.syncs]).toEqual([1, 1]);
    expect(other.prepare("SELECT count(*) FROM idempotency_keys WHERE idem_key = 'k1'").pluck().get()).toBe(1);
    // Taken already: nothing changes, so nothing is synced.
    expect(await store.idempotency.claim(claim)).toBe(false);
    expect(store.stats().syncs).toBe(claimed.syncs);
    expect(await store.idempotency.complete(account.id, 'k1', 1_000, 201, 'sealed')).toBe(true);
    expect(other.prepare("SELECT status FROM idempotency_keys WHERE idem_key = 'k1'").pluck().get()).toBe(201);
    expect((await store.idempotency.find(account.id, 'k1'))?.status).toBe(201);
  });

  it('rejects only the transaction whose BEGIN fails, and the queue moves on', async () => {
    // Another process holds the write lock; a short busy timeout keeps the test fast.
    (store as unknown as { db: Database.Database }).db.pragma('busy_timeout = 10');
    other.exec('BEGIN IMMEDIATE');
    const blocked = await Promise.allSettled([createAccount('e0'), createAccount('e1')]);
    expect(blocked.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(blocked[0]).toMatchObject({ reason: { code: 'SQLITE_BUSY' } });
    other.exec('ROLLBACK');

    await createAccount('e2');
    expect([committedAccounts('e0'), committedAccounts('e1'), committedAccounts('e2')]).toEqual([0, 0, 1]);
    expect(store.stats()).toMatchObject({ openTransactions: 0, locked: false });
  });

  it('given a Durability, resolves once its writes are visible and hands over the commit, which what follows shares', async () => {
    const { pending, durability } = collecting();
    const commitsBefore = store.stats().commits;

    const account = await store.transaction((tx) => tx.accounts.create('g0', 0, new Date()), durability);
    // Resolved before its batch committed: another process does not see it yet.
    expect(committedAccounts(account.name)).toBe(0);
    // What the caller writes next (an API write's audit entry) joins the same batch.
    const followUp = await store.transaction(async (tx) => (await tx.accounts.get(account.id))?.name, durability);
    expect(followUp).toBe('g0');
    expect(pending).toHaveLength(2);

    await Promise.all(pending);
    expect([committedAccounts('g0'), store.stats().commits - commitsBefore]).toEqual([1, 1]);
    expect(store.stats()).toMatchObject({ openTransactions: 0, locked: false });
  });

  it('given a Durability, reports a COMMIT that fails through it, and nothing of the batch is kept', async () => {
    const db = (store as unknown as { db: Database.Database }).db;
    const { pending, durability } = collecting();
    const result = await store.transaction(async (tx) => {
      await tx.accounts.create('h0', 0, new Date());
      // A foreign key checked only at COMMIT: the work succeeds, its batch's COMMIT fails.
      db.pragma('defer_foreign_keys = ON');
      await tx.apiKeys.create({ accountId: 999_999, kind: 'personal', roles: [], lookupHash: 'orphan', sealedKey: 's', createdAt: '' });
      return 'done';
    }, durability);
    expect(result).toBe('done');
    expect(durability.lost).toBe(false);

    // Told before the failure is reported, so before any later batch runs.
    const lostWhenReported = pending[0]!.then(
      () => false,
      () => durability.lost,
    );
    await expect(pending[0]).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    expect(await lostWhenReported).toBe(true);
    expect(committedAccounts('h0')).toBe(0);
    await createAccount('h1');
    expect(committedAccounts('h1')).toBe(1);
  });

  it('commits the pending batch before closing', async () => {
    const pending = Array.from({ length: 10 }, (_, i) => createAccount(`f${i}`));
    const closed = store.close();
    await Promise.all(pending);
    await closed;
    expect(committedAccountTotal()).toBe(10);
    store = await SqliteStore.open(file);
    expect(await store.accounts.count()).toBe(10);
  });
});
