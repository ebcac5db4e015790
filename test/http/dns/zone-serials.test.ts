/**
 * The SOA serial, on both stores: every kind of change (a record added, changed, deleted; the
 * zone's settings; DNSSEC on and off; an import) moves it up, never down nor in place; and the
 * zone-transfer history built from those versions answers an IXFR with exactly what changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialAfter } from '../../../src/domain/dns/transfer/zone-transfers.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';

let t: TestContext;
let zoneId: number;

// One zone for both tests: each looks at the serials its own changes make.
beforeAll(async () => {
  t = await createTestApp();
  await t.app.services.servedZones.start();
  zoneId = (await t.post('/dnszone', { Domain: 'serials.test' })).body.Id;
});
afterAll(() => t.close());

const serial = () => t.app.services.dnsAuthority.indexAtApex('serials.test')!.zone.serial;

describe('the SOA serial', () => {
  it('moves up with every change, whatever kind', async () => {
    const seen = [serial()];
    const changed = async (status: Promise<{ status: number }>, expected: number) => {
      expect((await status).status).toBe(expected);
      const now = serial();
      expect(serialAfter(now, seen.at(-1)!), `after change ${seen.length}`).toBe(true);
      seen.push(now);
    };
    const record = await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'www', Value: '192.0.2.1' });
    expect(record.status).toBe(201);
    expect(serialAfter(serial(), seen[0]!)).toBe(true);
    seen.push(serial());
    await changed(t.post(`/dnszone/${zoneId}/records/${record.body.Id}`, { Value: '192.0.2.2' }), 204);
    await changed(t.post(`/dnszone/${zoneId}`, { SoaEmail: 'dns@serials.test' }), 200);
    await changed(t.post(`/dnszone/${zoneId}/dnssec`), 200);
    await changed(t.del(`/dnszone/${zoneId}/dnssec`), 200);
    await changed(t.request('POST', `/dnszone/${zoneId}/import`, 'mail 300 IN A 192.0.2.25\n', undefined, { 'content-type': 'text/plain' }), 200);
    await changed(t.del(`/dnszone/${zoneId}/records/${record.body.Id}`), 204);
  });

  it('keeps the versions a transfer saw, and answers an IXFR from one with what changed since', async () => {
    const transfers = t.app.services.dnsTransfers;
    const first = transfers.snapshot('serials.test')!;
    expect((await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'a', Value: '192.0.2.1' })).status).toBe(201);
    const second = transfers.snapshot('serials.test')!;
    expect((await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'b', Value: '192.0.2.2' })).status).toBe(201);
    const changes = transfers.changesSince('serials.test', first.serial)!;
    expect(changes.kind).toBe('differences');
    if (changes.kind !== 'differences') return;
    expect(changes.differences.map((d) => [d.from, d.to, d.removed.length, d.added.length])).toEqual([
      [first.serial, second.serial, 0, 1],
      [second.serial, serial(), 0, 1],
    ]);
    expect(transfers.changesSince('serials.test', serial())!.kind).toBe('current');
    // A serial this instance never built (another instance's, or older than the history): the whole zone.
    expect(transfers.changesSince('serials.test', first.serial - 1000)!.kind).toBe('whole');
  });
});
