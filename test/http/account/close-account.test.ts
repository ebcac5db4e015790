/**
 * `POST /user/closeaccount`: confirmed with a full-access key of the account, it deletes all the
 * account owns (files included), revokes its keys at once and removes the account; nothing else moves.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { files, startStoragePlane, type StoragePlane } from '../../helpers/storage-plane.js';
import { png } from '../video-libraries/image-fixtures.js';

let t: TestContext;
let plane: StoragePlane;
beforeEach(async () => {
  t = await createTestApp();
  plane = await startStoragePlane(t);
});
afterEach(async () => {
  await plane.close();
  await t.close();
});

const KINDS = ['pullZone', 'storageZone', 'dnsZone', 'dnsRecord', 'videoLibrary', 'containerApp', 'hostname', 'videoLibraryImage'] as const;
const everything = { offset: 0, limit: 1000 };

async function docsOf(accountId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const kind of KINDS) counts[kind] = (await t.store.docs.list(kind, accountId, everything)).total;
  return counts;
}

/** One of everything, and a file in a storage zone. */
async function populate(key: string, tag: string) {
  const ok = async (res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const storage = await ok(t.post('/storagezone', { Name: `${tag}-files`, Region: 'DE' }, key));
  expect((await files(plane, storage).put('docs/readme.txt', 'hello')).status).toBe(201);
  const pull = await ok(t.post('/pullzone', { Name: `${tag}-cdn`, StorageZoneId: storage.Id }, key));
  await ok(t.post(`/pullzone/${pull.Id}/addHostname`, { Hostname: `cdn.${tag}.example` }, key));
  const dns = await ok(t.post('/dnszone', { Domain: `${tag}.example` }, key));
  await ok(t.put(`/dnszone/${dns.Id}/records`, { Type: 0, Name: 'www', Value: '192.0.2.1' }, key));
  const library = await ok(t.post('/videolibrary', { Name: `${tag} videos` }, key));
  await ok(t.request('PUT', `/videolibrary/${library.Id}/watermark`, png(4, 4), key, { 'content-type': 'image/png' }));
  await ok(
    t.post(
      '/mc/apps',
      { name: `${tag} app`, runtimeType: 'shared', autoScaling: { min: 1, max: 1 }, regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] } },
      key,
    ),
  );
  return { storage, pull, dns, library };
}

const close = (Password: unknown, key?: string) => t.post('/user/closeaccount', { Password, Reason: 'moving on' }, key);

describe('POST /user/closeaccount', () => {
  it('refuses without the confirmation of a full-access key of the account, changing nothing', async () => {
    await populate(t.key, 'alpha');
    const before = await docsOf(t.accountId);
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    const other = await t.newAccount();
    for (const password of [undefined, null, '', 'not-a-key', readOnly, other.key, `${t.key} `]) {
      const res = await close(password);
      expectErrorBody(res, 400, '/user/closeaccount');
      expect(errorFields(res)).toEqual(['Password']);
    }
    expectErrorBody(await t.post('/user/closeaccount', undefined), 400);
    expectErrorBody(await close(t.key, readOnly), 403);
    expect(await docsOf(t.accountId)).toEqual(before);
    expect((await t.get('/user')).status).toBe(200);
    expect((await t.get('/user', readOnly)).status).toBe(200);
  });

  it('deletes everything the account owns, files included, and its keys stop working at once', async () => {
    const { storage, library } = await populate(t.key, 'alpha');
    const second = (await t.post('/apikey', {})).body.Key;
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    const other = await t.newAccount('bystander');
    await populate(other.key, 'beta');
    const othersBefore = await docsOf(other.accountId);
    const othersView = (await t.get('/pullzone', other.key)).body;

    const res = await close(second);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ Success: true, Message: 'The account is closed.' });

    for (const key of [t.key, second, readOnly]) expectErrorBody(await t.get('/user', key), 401);
    expect(await docsOf(t.accountId)).toEqual(Object.fromEntries(KINDS.map((k) => [k, 0])));
    expect(await t.store.accounts.get(t.accountId)).toBeUndefined();
    expect((await t.app.services.operator.listAccounts()).map((a) => a.Name)).toEqual(['bystander']);
    expect(await t.store.files.get(String(storage.Id), 'docs/readme.txt')).toBeUndefined();
    expect((await files(plane, storage).get('docs/readme.txt')).status).toBe(401);
    // The bytes leave the backend after their grace, as any deleted zone's.
    t.clock.advance(61_000);
    await t.app.services.fileSweeper.sweepDead();
    const left: string[] = [];
    for await (const blob of t.app.services.files.blobs.list('')) left.push(blob.key);
    expect(left.filter((k) => k.startsWith(`${storage.Id}/`) || k.startsWith(`videolibrary-${library.Id}/`))).toEqual([]);

    // Its names are free again, for anyone.
    expect((await t.post('/storagezone/checkavailability', { Name: 'alpha-files' }, other.key)).body).toEqual({ Available: true });
    expect((await t.post('/pullzone/checkavailability', { Name: 'alpha-cdn' }, other.key)).body).toEqual({ Available: true });
    expect((await t.post('/dnszone/checkavailability', { Name: 'alpha.example' }, other.key)).body).toEqual({ Available: true });
    // And the other account is as it was.
    expect(await docsOf(other.accountId)).toEqual(othersBefore);
    expect((await t.get('/pullzone', other.key)).body).toEqual(othersView);
  });

  it('takes the ledger and the audit log with the account', async () => {
    await t.post('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com' });
    await t.app.services.operator.setBalance(t.accountId, 150);
    expect(await t.store.billing.list(t.accountId)).toHaveLength(1);
    const day = { day: '2026-01-01', descending: false, limit: 100 };
    expect((await t.store.audit.list(t.accountId, day)).length).toBeGreaterThan(0);
    expect((await close(t.key)).status).toBe(200);
    expect(await t.store.billing.list(t.accountId)).toEqual([]);
    expect(await t.store.audit.list(t.accountId, day)).toEqual([]);
  });
});
