import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Availability } from '../../../src/planes/api/routes/pull-zones/bodies.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { CDN_DOMAIN, createZone, expectShape, readOnlyKey, readZone } from './support.js';

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

describe('POST /pullzone/{id}/resetSecurityKey', () => {
  it('replaces the key with a new random one, with or without a body; nothing else changes', async () => {
    const zone = await createZone(t);
    const res = await t.post(`/pullzone/${zone.Id}/resetSecurityKey`);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const first = await readZone(t, zone.Id);
    expect(first.ZoneSecurityKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).toEqual({ ...zone, ZoneSecurityKey: first.ZoneSecurityKey });
    expect(first.ZoneSecurityKey).not.toBe(zone.ZoneSecurityKey);
    for (const body of [{}, { SecurityKey: null }, null]) {
      expect((await t.post(`/pullzone/${zone.Id}/resetSecurityKey`, body)).status).toBe(204);
    }
    const keys = new Set([zone.ZoneSecurityKey, first.ZoneSecurityKey, (await readZone(t, zone.Id)).ZoneSecurityKey]);
    expect(keys.size).toBe(3);
  });

  it("sets a key of the caller's choosing, 8 to 36 characters, sealed at rest", async () => {
    const zone = await createZone(t);
    expect((await t.post(`/pullzone/${zone.Id}/resetSecurityKey`, { securitykey: 'my-own-key' })).status).toBe(204);
    expect((await readZone(t, zone.Id)).ZoneSecurityKey).toBe('my-own-key');
    const raw = await t.store.docs.get<{ ZoneSecurityKey: string }>('pullZone', t.accountId, String(zone.Id));
    expect(raw!.doc.ZoneSecurityKey).not.toContain('my-own-key');
    for (const bad of ['short', 'x'.repeat(37), 12345678]) {
      const res = await t.post(`/pullzone/${zone.Id}/resetSecurityKey`, { SecurityKey: bad });
      expectErrorBody(res, 400);
      expect(errorFields(res)).toEqual(['SecurityKey']);
    }
    expect((await t.post(`/pullzone/${zone.Id}/resetSecurityKey`, { SecurityKey: 'x'.repeat(36) })).status).toBe(204);
    expect((await readZone(t, zone.Id)).ZoneSecurityKey).toBe('x'.repeat(36));
  });

  it('answers 404 for unknown and foreign zones; needs a writing key', async () => {
    const zone = await createZone(t);
    expectErrorBody(await t.post('/pullzone/999999/resetSecurityKey'), 404);
    const other = await t.newAccount();
    expectErrorBody(await t.post(`/pullzone/${zone.Id}/resetSecurityKey`, undefined, other.key), 404);
    expectErrorBody(await t.post(`/pullzone/${zone.Id}/resetSecurityKey`, undefined, null), 401);
    expectErrorBody(await t.post(`/pullzone/${zone.Id}/resetSecurityKey`, undefined, await readOnlyKey(t)), 403);
    expect((await readZone(t, zone.Id)).ZoneSecurityKey).toBe(zone.ZoneSecurityKey);
  });
});

describe('POST /pullzone/{id}/purgeCache', () => {
  it('raises CacheVersion by one per purge, whole or by tag; nothing else changes', async () => {
    const zone = await createZone(t);
    const res = await t.post(`/pullzone/${zone.Id}/purgeCache`);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect(await readZone(t, zone.Id)).toEqual({ ...zone, CacheVersion: 1 });
    expect((await t.post(`/pullzone/${zone.Id}/purgeCache`, { CacheTag: 'images' })).status).toBe(204);
    expect((await t.post(`/pullzone/${zone.Id}/purgeCache`, null)).status).toBe(204);
    expect((await readZone(t, zone.Id)).CacheVersion).toBe(3);
    expect(errorFields(await t.post(`/pullzone/${zone.Id}/purgeCache`, { CacheTag: 5 }))).toEqual(['CacheTag']);
  });

  it('answers 404 for unknown and foreign zones; needs a writing key', async () => {
    const zone = await createZone(t);
    expectErrorBody(await t.post('/pullzone/999999/purgeCache'), 404, '/pullzone/999999/purgeCache');
    const other = await t.newAccount();
    expectErrorBody(await t.post(`/pullzone/${zone.Id}/purgeCache`, undefined, other.key), 404);
    expectErrorBody(await t.post(`/pullzone/${zone.Id}/purgeCache`, undefined, null), 401);
    expectErrorBody(await t.post(`/pullzone/${zone.Id}/purgeCache`, undefined, 'wrong'), 401);
    expectErrorBody(await t.post(`/pullzone/${zone.Id}/purgeCache`, undefined, await readOnlyKey(t)), 403);
    expect((await readZone(t, zone.Id)).CacheVersion).toBe(0);
  });
});

describe('POST /pullzone/checkavailability', () => {
  const check = (body: unknown, key?: string | null) => t.post('/pullzone/checkavailability', body, key);

  it('tells whether a name is free across every account, case-insensitively', async () => {
    const free = await check({ Name: 'fresh' });
    expect(free.status).toBe(200);
    expectShape(Availability, free.body);
    expect(free.body).toEqual({ Available: true });
    await createZone(t, 'mine');
    const other = await t.newAccount();
    await createZone(t, 'theirs', {}, other.key);
    expect((await check({ Name: 'MINE' })).body).toEqual({ Available: false });
    expect((await check({ name: 'theirs' })).body).toEqual({ Available: false });
    const zone = (await t.get('/pullzone')).body[0];
    expect((await t.del(`/pullzone/${zone.Id}`)).status).toBe(204);
    expect((await check({ Name: 'mine' })).body).toEqual({ Available: true });
  });

  it('refuses a name that breaks the naming rule; needs a key', async () => {
    for (const bad of [{ Name: '' }, { Name: 'under_score' }, { Name: 'a'.repeat(64) }, { Name: null }, {}]) {
      const res = await check(bad);
      expectErrorBody(res, 400, '/pullzone/checkavailability');
      expect(errorFields(res)).toEqual(['Name']);
    }
    expect((await check({ Name: 'a'.repeat(63) })).body).toEqual({ Available: true });
    expectErrorBody(await check({ Name: 'fresh' }, null), 401);
    expectErrorBody(await check({ Name: 'fresh' }, 'wrong'), 401);
  });

  it('answers a read-only key too: checking a name changes nothing, though it is a POST', async () => {
    await createZone(t, 'mine');
    const readOnly = await readOnlyKey(t);
    expect(await check({ Name: 'mine' }, readOnly)).toMatchObject({ status: 200, body: { Available: false } });
    expect(await check({ Name: 'fresh' }, readOnly)).toMatchObject({ status: 200, body: { Available: true } });
    expectErrorBody(await t.post('/pullzone', { Name: 'fresh', OriginUrl: 'https://origin.example.com' }, readOnly), 403);
  });
});
