/**
 * A usage counter (what the DNS plane counts every query with) adds exactly what `add` would: to
 * the pending sums, read at once; across flushes; into the hour it is given; and, when a flush
 * fails, into the counts kept for the next one. On both stores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hourOf, UsageRecorder } from '../../src/domain/usage/recorder.js';
import type { Store } from '../../src/store/types.js';
import { testStoreLocation, type TestStoreLocation } from '../helpers/store.js';

const AT = new Date('2026-03-01T10:30:00Z');
const HOUR = hourOf(AT);
const clock = () => AT;

let dir: string;
let location: TestStoreLocation;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-usage-'));
  location = await testStoreLocation(join(dir, 'db.sqlite'));
  store = await location.open();
});
afterEach(async () => {
  await store.close();
  await location.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const sums = async (usage: UsageRecorder, metric = 'queries') =>
  (await usage.series('dnsZone:1', [metric], new Date(AT.getTime() - 3_600_000), new Date(AT.getTime() + 7_200_000))).map((e) => [e.hour - HOUR, e.value]);

describe('UsageCounter', () => {
  it('adds to what is pending, read at once, and keeps adding across flushes', async () => {
    const usage = new UsageRecorder(store, clock);
    const counter = usage.counter('dnsZone:1', 'queries');
    counter.add(1, HOUR);
    counter.add(2, HOUR);
    usage.add('dnsZone:1', 'queries', 4, AT);
    expect(await sums(usage)).toEqual([[0, 7]]);
    await usage.flush();
    counter.add(10, HOUR);
    expect(await sums(usage)).toEqual([[0, 17]]);
    await usage.flush();
    await usage.flush();
    expect(await store.usage.series('dnsZone:1', ['queries'], HOUR, HOUR)).toMatchObject([{ hour: HOUR, value: 17 }]);
  });

  it('counts into the hour it is given, and into another metric nothing', async () => {
    const usage = new UsageRecorder(store, clock);
    const counter = usage.counter('dnsZone:1', 'queries');
    counter.add(1, HOUR);
    counter.add(5, HOUR + 1);
    counter.add(1, HOUR);
    expect(await sums(usage)).toEqual([
      [0, 2],
      [1, 5],
    ]);
    expect(await sums(usage, 'other')).toEqual([]);
  });

  it('keeps its counts, and those made after, when a flush fails', async () => {
    let failNext = true;
    const failingOnce = Object.create(store) as Store;
    failingOnce.transaction = ((work: Parameters<Store['transaction']>[0]) => {
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('the store is away'));
      }
      return store.transaction(work);
    }) as Store['transaction'];
    const usage = new UsageRecorder(failingOnce, clock);
    const counter = usage.counter('dnsZone:1', 'queries');
    counter.add(3, HOUR);
    await expect(usage.flush()).rejects.toThrow('the store is away');
    counter.add(4, HOUR);
    expect(await sums(usage)).toEqual([[0, 7]]);
    await usage.flush();
    counter.add(1, HOUR);
    await usage.flush();
    expect(await store.usage.series('dnsZone:1', ['queries'], HOUR, HOUR)).toMatchObject([{ hour: HOUR, value: 8 }]);
  });
});
