/**
 * A second instance's DNS plane sees a change made through the first instance within a second
 * (the PostgreSQL change feed), including a new zone, a changed record and a deleted zone; a zone
 * written many times while it is being read is read again once, not once per write; the first
 * instance's writes move the serial here too, which this instance's transfers follow.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serialAfter } from '../../src/domain/dns/transfer/zone-transfers.js';
import { startDnsPlane } from '../../src/planes/dns/plane.js';
import type { RunningPlane } from '../../src/planes/plane.js';
import type { Store } from '../../src/store/types.js';
import { buildApiOver, createTestApp, type TestContext } from '../helpers/app.js';
import { dig } from '../helpers/dns-plane.js';
import { within } from '../helpers/within.js';

let a: TestContext;
let storeB: Store;
let b: FastifyInstance;
let dnsB: RunningPlane;
let port: number;

beforeEach(async () => {
  a = await createTestApp({}, { storeKind: 'postgres' });
  storeB = await a.openStore();
  b = await buildApiOver({ config: a.config, store: storeB, masterKey: a.masterKey, clock: a.clock.read });
  dnsB = await startDnsPlane(b.services, '127.0.0.1', 0, { rateLimitPerSecond: 0 });
  port = Number(new URL(dnsB.url).port);
});
afterEach(async () => {
  await dnsB.close();
  await b.close();
  await storeB.close();
  await a.close();
});

describe("another instance's DNS plane", () => {
  it('answers a zone, a record change and a deletion made on the first instance within a second', async () => {
    const plane = { port, close: async () => {} };
    const zone = await a.post('/dnszone', { Domain: 'feed.test' });
    await within(1000, async () => (await dig(plane, 'feed.test', 'SOA')).status === 'NOERROR');
    const record = await a.put(`/dnszone/${zone.body.Id}/records`, { Type: 0, Name: 'www', Value: '192.0.2.7' });
    await within(1000, async () => (await dig(plane, 'www.feed.test', 'A')).answer[0]?.[4] === '192.0.2.7');
    await a.post(`/dnszone/${zone.body.Id}/records/${record.body.Id}`, { Value: '192.0.2.8' });
    await within(1000, async () => (await dig(plane, 'www.feed.test', 'A')).answer[0]?.[4] === '192.0.2.8');
    expect((await a.del(`/dnszone/${zone.body.Id}`)).status).toBe(204);
    await within(1000, async () => (await dig(plane, 'www.feed.test', 'A')).status === 'REFUSED');
  });

  it("moves the serial here when the first instance writes: this one's NOTIFY and IXFR carry the change too", async () => {
    const zone = await a.post('/dnszone', { Domain: 'serial.test' });
    const transfers = b.services.dnsTransfers;
    await within(1000, async () => transfers.snapshot('serial.test') !== undefined);
    const before = transfers.snapshot('serial.test')!.serial;
    const moved: number[] = [];
    transfers.onSerialMoved.push((served) => moved.push(served.serial));
    expect((await a.put(`/dnszone/${zone.body.Id}/records`, { Type: 0, Name: 'www', Value: '192.0.2.7' })).status).toBe(201);
    await within(1000, async () => moved.length > 0);
    expect(serialAfter(moved[0]!, before)).toBe(true);
    const changes = transfers.changesSince('serial.test', before)!;
    expect(changes.kind === 'differences' && changes.differences.map((d) => d.added.length)).toEqual([1]);
  });

  it('reads a zone written many times meanwhile once per read, not once per write, and ends at the last write', async () => {
    const plane = { port, close: async () => {} };
    const zone = await a.post('/dnszone', { Domain: 'busy.test' });
    await within(1000, async () => (await dig(plane, 'busy.test', 'SOA')).status === 'NOERROR');
    // Each read of the zone's records on the second instance takes 250 ms, as a large zone's would:
    // longer than a write takes even on a loaded machine, so that writes do come in during a read.
    let reads = 0;
    const read = storeB.dnsRecords.ofZones.bind(storeB.dnsRecords);
    storeB.dnsRecords.ofZones = async <T>(ids: readonly number[]) => {
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 250));
      return read<T>(ids);
    };
    const WRITES = 40;
    for (let i = 0; i < WRITES; i++) expect((await a.put(`/dnszone/${zone.body.Id}/records`, { Type: 0, Name: `w${i}`, Value: '192.0.2.9' })).status).toBe(201);
    await within(10_000, async () => (await dig(plane, `w${WRITES - 1}.busy.test`, 'A')).answer[0]?.[4] === '192.0.2.9');
    expect((await dig(plane, 'w0.busy.test', 'A')).answer[0]?.[4]).toBe('192.0.2.9');
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(WRITES / 2);
  });
});
