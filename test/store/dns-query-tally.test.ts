/**
 * What the DNS plane counts each query with: one tally per zone, kind and type, shared by every
 * answer that asks for it, counting into the hour the clock said at the start of the event loop's
 * turn (read once a turn, not once a query). On both stores.
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

const START = new Date('2026-03-01T10:59:59Z');
const HOUR = hourOf(START);

let dir: string;
let location: TestStoreLocation;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-tally-'));
  location = await testStoreLocation(join(dir, 'db.sqlite'));
  store = await location.open();
});
afterEach(async () => {
  await store.close();
  await location.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('DNS query tallies', () => {
  it('are one per zone, kind and type', () => {
    const statistics = new DnsStatistics(undefined as unknown as DnsZoneService, new UsageRecorder(store, () => START), () => START);
    expect(statistics.tally(1, 'A', false)).toBe(statistics.tally(1, 'A', false));
    expect(statistics.tally(1, 'A', false)).not.toBe(statistics.tally(1, 'AAAA', false));
    expect(statistics.tally(1, 'A', false)).not.toBe(statistics.tally(1, 'A', true));
    expect(statistics.tally(1, 'A', false)).not.toBe(statistics.tally(2, 'A', false));
  });

  it('count in the hour the clock said when the turn began, and read it again the next turn', async () => {
    let now = START;
    const clock = () => now;
    const usage = new UsageRecorder(store, clock);
    const statistics = new DnsStatistics(undefined as unknown as DnsZoneService, usage, clock);
    const tally = statistics.tally(7, 'A', false);
    await nextTurn();
    tally.count();
    now = new Date(START.getTime() + 2_000);
    tally.count();
    await nextTurn();
    tally.count();
    statistics.tally(7, 'MX', false).count();
    const sums = await usage.series('dnsZone:7', ['queries.normal', 'queries.type.A', 'queries.type.MX'], START, now);
    expect(sums.map((e) => [e.metric, e.hour - HOUR, e.value]).sort()).toEqual([
      ['queries.normal', 0, 2],
      ['queries.normal', 1, 2],
      ['queries.type.A', 0, 2],
      ['queries.type.A', 1, 1],
      ['queries.type.MX', 1, 1],
    ]);
  });
});
