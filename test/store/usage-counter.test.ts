/**
 * A usage counter (what the DNS plane counts every query with) adds exactly what `add` would: to
 * the pending sums, read at once; across flushes; into the hour it is given; and, when a flush
 * fails, into the counts kept for the next one; and the DNS plane's tallies built on it. On both
 * stores. Removing a subject's counters (a deleted video's figures), on both stores too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DnsStatistics } from '../../src/domain/dns/statistics.js';
import type { DnsZoneService } from '../../src/domain/dns/service.js';
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

/** One second before HOUR ends. */
const END_OF_HOUR = new Date('2026-03-01T10:59:59Z');
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * What the DNS plane counts each query with: one tally per zone, kind and type, shared by every
 * answer that asks for it, counting into the hour the clock said at the start of the event loop's
 * turn (read once a turn, not once a query).
 */
describe('DNS query tallies', () => {
  it('are one per zone, kind and type', () => {
    const statistics = new DnsStatistics(undefined as unknown as DnsZoneService, new UsageRecorder(store, () => END_OF_HOUR), () => END_OF_HOUR);
    expect(statistics.tally(1, 'A', false)).toBe(statistics.tally(1, 'A', false));
    expect(statistics.tally(1, 'A', false)).not.toBe(statistics.tally(1, 'AAAA', false));
    expect(statistics.tally(1, 'A', false)).not.toBe(statistics.tally(1, 'A', true));
    expect(statistics.tally(1, 'A', false)).not.toBe(statistics.tally(2, 'A', false));
  });

  it('count in the hour the clock said when the turn began, and read it again the next turn', async () => {
    let now = END_OF_HOUR;
    const clock = () => now;
    const usage = new UsageRecorder(store, clock);
    const statistics = new DnsStatistics(undefined as unknown as DnsZoneService, usage, clock);
    const tally = statistics.tally(7, 'A', false);
    await nextTurn();
    tally.count();
    now = new Date(END_OF_HOUR.getTime() + 2_000);
    tally.count();
    await nextTurn();
    tally.count();
    statistics.tally(7, 'MX', false).count();
    const sums = await usage.series('dnsZone:7', ['queries.normal', 'queries.type.A', 'queries.type.MX'], END_OF_HOUR, now);
    expect(sums.map((e) => [e.metric, e.hour - HOUR, e.value]).sort()).toEqual([
      ['queries.normal', 0, 2],
      ['queries.normal', 1, 2],
      ['queries.type.A', 0, 2],
      ['queries.type.A', 1, 1],
      ['queries.type.MX', 1, 1],
    ]);
  });
});

describe('usage counters in the store', () => {
  it('removes every metric and hour of the subjects named, and nothing of the others', async () => {
    const entry = (subject: string, metric: string, hour: number) => ({ subject, metric, hour, value: 1 });
    await store.transaction((tx) =>
      tx.usage.add([
        entry('video:a', 'views', HOUR),
        entry('video:a', 'segment.0', HOUR + 5),
        entry('video:b', 'views', HOUR),
        entry('videoLibrary:1', 'views', HOUR),
      ]),
    );
    await store.usage.remove([]);
    await store.transaction((tx) => tx.usage.remove(['video:a', 'video:none']));
    const all = async (subject: string) =>
      (await store.usage.series(subject, ['views', 'segment.0'], 0, Number.MAX_SAFE_INTEGER)).map((e) => [e.metric, e.hour - HOUR]);
    expect(await all('video:a')).toEqual([]);
    expect(await all('video:b')).toEqual([['views', 0]]);
    expect(await all('videoLibrary:1')).toEqual([['views', 0]]);
  });
});
