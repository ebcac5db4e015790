/**
 * Job lanes on both stores: a runner takes only the kinds of its lane (long work on a runner of
 * its own never holds up the short jobs), and a runner of several slots runs that many jobs at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/jobs/runner.js';
import { createTestApp, type TestContext } from '../helpers/app.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('claims', () => {
  it('take no more jobs than their limit, however the database plans the claim', async () => {
    // A claim is one UPDATE over a LIMITed, SKIP LOCKED choice. Written as `WHERE id IN (subquery)`,
    // PostgreSQL may run the subquery again for each row it joins and lease more rows than asked.
    const now = t.clock.read().getTime();
    let leased = 0;
    for (let round = 1; round <= 20; round++) {
      for (let i = 0; i < 3; i++) await t.store.jobs.enqueue('note', { round, i }, now);
      expect(await t.store.jobs.claimDue(now, 1, `worker-${round}`, now + 60_000)).toHaveLength(1);
      leased++;
      expect(await t.store.jobs.count(now)).toEqual({ pending: 3 * round - leased, leased });
    }
  });
});

describe('job lanes', () => {
  it('let each runner take only the kinds of its lane, and refuse a handler for a kind of another lane', async () => {
    const general = new JobRunner(t.store, t.clock.read, { lane: { except: ['encode'] } });
    const media = new JobRunner(t.store, t.clock.read, { lane: { only: ['encode'] } });
    const ran: string[] = [];
    general.register('note', async () => void ran.push('note'));
    media.register('encode', async () => void ran.push('encode'));
    expect(() => general.register('encode', async () => {})).toThrow(/another runner/);
    expect(() => media.register('note', async () => {})).toThrow(/another runner/);
    await general.enqueue('encode', {});
    await general.enqueue('note', {});
    expect(await general.runDue()).toBe(1);
    expect(ran).toEqual(['note']);
    expect(await media.runDue()).toBe(1);
    expect(ran).toEqual(['note', 'encode']);
  });

  it('run as many jobs at once as the runner has slots', async () => {
    const media = new JobRunner(t.store, t.clock.read, { lane: { only: ['encode'] }, concurrency: 2 });
    let running = 0;
    let most = 0;
    // The first two jobs wait for each other (at most 5 s): each slot holds one, however slowly a
    // loaded database hands the second slot its job; a runner running one at a time times out at 1.
    media.register('encode', async (payload) => {
      running++;
      most = Math.max(most, running);
      const first = (payload as { i: number }).i < 2;
      for (let waited = 0; first && running < 2 && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
    });
    for (let i = 0; i < 5; i++) await media.enqueue('encode', { i });
    expect(await media.runDue()).toBe(5);
    expect(most).toBe(2);
  }, 15_000);

  it('keep a slot looking when its claim comes back empty while the other slot is still claiming', async () => {
    // PostgreSQL may answer a claim empty beside due jobs (a row just taken fails the recheck after
    // its lock, and LIMIT looks no further). Here the first claim is slow and the second empty at
    // once: the second slot must look again, not leave the next job to the first slot's turn.
    const jobs = t.store.jobs;
    let claims = 0;
    const racing = Object.create(t.store) as typeof t.store;
    racing.jobs = Object.assign(Object.create(jobs) as typeof jobs, {
      claimDue: async (...args: Parameters<typeof jobs.claimDue>) => {
        const claim = ++claims;
        if (claim === 2) return [];
        if (claim === 1) await new Promise((resolve) => setTimeout(resolve, 100));
        return jobs.claimDue(...args);
      },
    });
    const media = new JobRunner(racing, t.clock.read, { lane: { only: ['encode'] }, concurrency: 2 });
    let running = 0;
    let most = 0;
    media.register('encode', async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 400));
      running--;
    });
    for (let i = 0; i < 2; i++) await media.enqueue('encode', { i });
    expect(await media.runDue()).toBe(2);
    expect(most).toBe(2);
  });
});
