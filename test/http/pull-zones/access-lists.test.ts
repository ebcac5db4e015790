import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { CDN_DOMAIN, createZone, readOnlyKey, readZone } from './support.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const call = (id: number, op: string, body: Record<string, unknown>, key?: string | null) => t.post(`/pullzone/${id}/${op}`, body, key);

const REFERRER_LISTS = [
  ['addAllowedReferrer', 'removeAllowedReferrer', 'AllowedReferrers'],
  ['addBlockedReferrer', 'removeBlockedReferrer', 'BlockedReferrers'],
] as const;

describe.each(REFERRER_LISTS)('POST /pullzone/{id}/%s and %s', (add, remove, list) => {
  it(`adds to and removes from ${list}, once per value, in canonical form`, async () => {
    const zone = await createZone(t);
    for (const value of ['Example.com', '*.partner.example.org', 'example.com', ' EXAMPLE.COM ']) {
      const res = await call(zone.Id, add, { Hostname: value });
      expect(res.status).toBe(204);
      expect(res.body).toBe('');
    }
    expect((await readZone(t, zone.Id))[list]).toEqual(['example.com', '*.partner.example.org']);
    expect((await call(zone.Id, remove, { hostname: 'EXAMPLE.com' })).status).toBe(204);
    expect((await call(zone.Id, remove, { Hostname: 'never.example.com' })).status).toBe(204);
    const after = await readZone(t, zone.Id);
    expect(after[list]).toEqual(['*.partner.example.org']);
    expect(after.BlockedIps).toEqual([]);
    await t.restart();
    expect((await readZone(t, zone.Id))[list]).toEqual(['*.partner.example.org']);
  });

  it('refuses values that are not hostnames, on add and on remove', async () => {
    const zone = await createZone(t);
    for (const op of [add, remove]) {
      for (const bad of ['', 'not a host', 'https://example.com', '*example.com', 'a.*.example.com', 7]) {
        const res = await call(zone.Id, op, { Hostname: bad });
        expectErrorBody(res, 400, `/pullzone/${zone.Id}/${op}`);
        expect(errorFields(res), `${op} ${String(bad)}`).toEqual(['Hostname']);
      }
      expect(errorFields(await call(zone.Id, op, {}))).toEqual(['Hostname']);
    }
    expect((await readZone(t, zone.Id))[list]).toEqual([]);
  });

  it('answers 404 for unknown and foreign zones; needs a writing key', async () => {
    const zone = await createZone(t);
    await call(zone.Id, add, { Hostname: 'example.com' });
    const other = await t.newAccount();
    for (const op of [add, remove]) {
      expectErrorBody(await call(999999, op, { Hostname: 'x.example.com' }), 404);
      expectErrorBody(await call(zone.Id, op, { Hostname: 'x.example.com' }, other.key), 404);
      expectErrorBody(await call(zone.Id, op, { Hostname: 'example.com' }, null), 401);
      expectErrorBody(await call(zone.Id, op, { Hostname: 'example.com' }, 'wrong'), 401);
      expectErrorBody(await call(zone.Id, op, { Hostname: 'x.example.com' }, await readOnlyKey(t)), 403);
    }
    expect((await readZone(t, zone.Id))[list]).toEqual(['example.com']);
  });
});

describe('POST /pullzone/{id}/addBlockedIp and removeBlockedIp', () => {
  it('adds IPv4 and IPv6 addresses and CIDR ranges once each, IPv6 in its shortest form', async () => {
    const zone = await createZone(t);
    for (const ip of ['203.0.113.7', '198.51.100.0/24', '2001:DB8:0:0::1', '2001:db8::/32', '2001:db8::1', '0.0.0.0/0']) {
      expect((await call(zone.Id, 'addBlockedIp', { BlockedIp: ip })).status).toBe(204);
    }
    expect((await readZone(t, zone.Id)).BlockedIps).toEqual(['203.0.113.7', '198.51.100.0/24', '2001:db8::1', '2001:db8::/32', '0.0.0.0/0']);
    expect((await call(zone.Id, 'removeBlockedIp', { BlockedIp: '2001:0db8::0001' })).status).toBe(204);
    expect((await call(zone.Id, 'removeBlockedIp', { BlockedIp: '192.0.2.1' })).status).toBe(204);
    expect((await readZone(t, zone.Id)).BlockedIps).toEqual(['203.0.113.7', '198.51.100.0/24', '2001:db8::/32', '0.0.0.0/0']);
  });

  it('matches entries written whole through the zone update, whatever their spelling', async () => {
    const zone = await createZone(t);
    expect((await t.post(`/pullzone/${zone.Id}`, { BlockedIps: ['2001:DB8::9'] })).status).toBe(200);
    expect((await call(zone.Id, 'addBlockedIp', { BlockedIp: '2001:db8::9' })).status).toBe(204);
    expect((await readZone(t, zone.Id)).BlockedIps).toEqual(['2001:DB8::9']);
    expect((await call(zone.Id, 'removeBlockedIp', { BlockedIp: '2001:db8:0::9' })).status).toBe(204);
    expect((await readZone(t, zone.Id)).BlockedIps).toEqual([]);
  });

  it('refuses what is not an address or range', async () => {
    const zone = await createZone(t);
    for (const op of ['addBlockedIp', 'removeBlockedIp']) {
      for (const bad of ['', 'example.com', '256.1.1.1', '203.0.113.7/33', '2001:db8::/129', '1.2.3.4/x', '1.2.3.4/24/1', 'fe80::1%eth0', '01.2.3.4']) {
        const res = await call(zone.Id, op, { BlockedIp: bad });
        expectErrorBody(res, 400);
        expect(errorFields(res), `${op} ${bad}`).toEqual(['BlockedIp']);
      }
      expect(errorFields(await call(zone.Id, op, { Hostname: '1.2.3.4' }))).toEqual(['BlockedIp']);
    }
    expect((await readZone(t, zone.Id)).BlockedIps).toEqual([]);
  });

  it('answers 404 for unknown and foreign zones; needs a writing key', async () => {
    const zone = await createZone(t);
    const other = await t.newAccount();
    for (const op of ['addBlockedIp', 'removeBlockedIp']) {
      expectErrorBody(await call(999999, op, { BlockedIp: '192.0.2.1' }), 404);
      expectErrorBody(await call(zone.Id, op, { BlockedIp: '192.0.2.1' }, other.key), 404);
      expectErrorBody(await call(zone.Id, op, { BlockedIp: '192.0.2.1' }, null), 401);
      expectErrorBody(await call(zone.Id, op, { BlockedIp: '192.0.2.1' }, await readOnlyKey(t)), 403);
    }
    expect((await readZone(t, zone.Id)).BlockedIps).toEqual([]);
  });
});
