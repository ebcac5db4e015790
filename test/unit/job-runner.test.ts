import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobRunner } from '../../src/jobs/runner.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { TestClock } from '../helpers/app.js';

let dir: string;
let store: SqliteStore;
let clock: TestClock;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-jobs-'));
  store = await SqliteStore.open(join(dir, 'db.sqlite'));
  clock = new TestClock();
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('JobRunner', () => {
  it('runs a job only once it is due, then removes it', async () => {
    const runner = new JobRunner(store, clock.read);
    const seen: unknown[] = [];
    runner.register('note', async (p) => {
      seen.push(p);
    });
    await runner.enqueue('note', { n: 1 }, 1000);
    expect(await runner.runDue()).toBe(0);
    clock.advance(999);
    expect(await runner.runDue()).toBe(0);
    clock.advance(1);
    expect(await runner.runDue()).toBe(1);
    expect(seen).toEqual([{ n: 1 }]);
    expect(await runner.runDue()).toBe(0);
    expect(await store.jobs.count(clock.read().getTime())).toEqual({ pending: 0, leased: 0 });
  });

  it('survives a restart: jobs are rows, not timers', async () => {
    await new JobRunner(store, clock.read).enqueue('note', { n: 2 }, 10);
    await store.close();
    store = await SqliteStore.open(join(dir, 'db.sqlite'));
    const runner = new JobRunner(store, clock.read);
    const seen: unknown[] = [];
    runner.register('note', async (p) => {
      seen.push(p);
    });
    clock.advance(10);
    await runner.runDue();
    expect(seen).toEqual([{ n: 2 }]);
  });

  it('never runs a leased job on a second runner, and retries a failed one later', async () => {
    const a = new JobRunner(store, clock.read, { leaseMs: 60_000 });
    const b = new JobRunner(store, clock.read, { leaseMs: 60_000 });
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    a.register('slow', async () => {
      runs++;
      await gate;
    });
    b.register('slow', async () => {
      runs++;
    });
    await a.enqueue('slow', {});
    const first = a.runDue();
    await new Promise((r) => setImmediate(r));
    expect(await b.runDue()).toBe(0);
    release();
    await first;
    expect(runs).toBe(1);

    let attempts = 0;
    const errors: unknown[] = [];
    const c = new JobRunner(store, clock.read, { onError: (_k, e) => errors.push(e) });
    c.register('flaky', async () => {
      attempts++;
      if (attempts === 1) throw new Error('boom');
    });
    await c.enqueue('flaky', {});
    await c.runDue();
    expect(attempts).toBe(1);
    expect(errors).toHaveLength(1);
    expect(await c.runDue()).toBe(0);
    clock.advance(1000);
    await c.runDue();
    expect(attempts).toBe(2);
    expect(await store.jobs.count(clock.read().getTime())).toEqual({ pending: 0, leased: 0 });
  });

  it('picks up a job again when its runner died holding the lease', async () => {
    const now = clock.read().getTime();
    await store.jobs.enqueue('orphan', {}, now);
    const claimed = await store.jobs.claimDue(now, 10, 'dead-worker', now + 5000);
    expect(claimed).toHaveLength(1);
    const runner = new JobRunner(store, clock.read);
    let ran = 0;
    runner.register('orphan', async () => {
      ran++;
    });
    expect(await runner.runDue()).toBe(0);
    clock.advance(5001);
    expect(await runner.runDue()).toBe(1);
    expect(ran).toBe(1);
  });

  it('writes through transactions, whose disk sync runs off the event loop, and syncs nothing when nothing is due', async () => {
    const runner = new JobRunner(store, clock.read);
    runner.register('note', async () => {});
    await runner.enqueue('note', {}, 0);
    const before = store.stats();
    expect(await runner.runDue()).toBe(1);
    const after = store.stats();
    // The lease and the completion: each a batch commit with its log sync (a statement outside a
    // transaction would commit with its own sync, on the event loop, and count no batch).
    expect(after.commits - before.commits).toBe(2);
    expect(after.syncs - before.syncs).toBe(2);
    expect(await runner.runDue()).toBe(0);
    expect(store.stats().syncs).toBe(after.syncs);
  });
  it('renews the lease of a job longer than its lease, so that another instance never takes it while it runs', async () => {
    const wall = () => new Date();
    const a = new JobRunner(store, wall, { leaseMs: 300 });
    const b = new JobRunner(store, wall, { leaseMs: 300 });
    let runs = 0;
    const slow = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 1200));
    };
    a.register('encode', slow);
    b.register('encode', slow);
    await a.enqueue('encode', {}, 0);
    const running = a.runDue();
    // Four times the lease: B looks for due jobs all along and finds none.
    const deadline = Date.now() + 1100;
    while (Date.now() < deadline) {
      expect(await b.runDue()).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await running).toBe(1);
    expect(runs).toBe(1);
  });

  it('aborts a running job whose lease another instance took', async () => {
    const a = new JobRunner(store, () => new Date(), { leaseMs: 300 });
    let aborted: unknown;
    a.register('encode', async (_payload, { signal }) => {
      await new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => resolve());
        setTimeout(resolve, 3000);
      });
      aborted = signal.reason;
    });
    await a.enqueue('encode', {}, 0);
    const running = a.runDue();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // As an instance whose clock is past the lease: it takes the job.
    const later = Date.now() + 60_000;
    expect(await store.jobs.claimDue(later, 10, 'other-worker', later + 60_000)).toHaveLength(1);
    await running;
    expect(String(aborted)).toContain('lease was lost');
  });
});
