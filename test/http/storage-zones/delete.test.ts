import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const create = async (Name = 'files') => (await t.post('/storagezone', { Name, Region: 'DE' })).body;
const pullZone = async (Name: string, StorageZoneId: number) => (await t.post('/pullzone', { Name, StorageZoneId })).body;
const listed = async () => (await t.get('/storagezone?includeDeleted=true')).body as { Id: number; Deleted: boolean }[];

describe('DELETE /storagezone/{id}', () => {
  it('answers 204 and keeps the zone only as a tombstone', async () => {
    const zone = await create();
    t.clock.advance(1000);
    const res = await t.del(`/storagezone/${zone.Id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');

    expectErrorBody(await t.get(`/storagezone/${zone.Id}`), 404, `/storagezone/${zone.Id}`);
    expect((await t.get('/storagezone')).body).toEqual([]);
    const [tombstone] = await listed();
    expect(tombstone).toEqual({
      ...zone,
      Deleted: true,
      Password: null,
      ReadOnlyPassword: null,
      DateModified: new Date(Date.parse(zone.DateModified) + 1000).toISOString(),
    });
    await t.restart();
    expect(await listed()).toEqual([tombstone]);
  });

  it('frees the name for a new zone, of any account', async () => {
    const zone = await create('reused');
    expect((await t.del(`/storagezone/${zone.Id}`)).status).toBe(204);
    const other = await t.newAccount();
    const again = await t.post('/storagezone', { Name: 'reused', Region: 'SG' }, other.key);
    expect(again.status).toBe(201);
    expect(again.body.Id).not.toBe(zone.Id);
  });

  it('deletes the pull zones that use the zone, by default and with deleteLinkedPullZones=true', async () => {
    for (const query of ['', '?deleteLinkedPullZones=true']) {
      const zone = await create(`files${query.length}`);
      const a = await pullZone(`a${query.length}`, zone.Id);
      const b = await pullZone(`b${query.length}`, zone.Id);
      const unrelated = (await t.post('/pullzone', { Name: `u${query.length}`, OriginUrl: 'https://o.example' })).body;
      expect((await t.del(`/storagezone/${zone.Id}${query}`)).status).toBe(204);
      expectErrorBody(await t.get(`/pullzone/${a.Id}`), 404);
      expectErrorBody(await t.get(`/pullzone/${b.Id}`), 404);
      expect((await t.get(`/pullzone/${unrelated.Id}`)).status).toBe(200);
    }
  });

  it('refuses with deleteLinkedPullZones=false while pull zones use the zone, naming them, and deletes nothing', async () => {
    const zone = await create();
    const a = await pullZone('site-cdn', zone.Id);
    const res = await t.del(`/storagezone/${zone.Id}?deleteLinkedPullZones=false`);
    expectErrorBody(res, 400, `/storagezone/${zone.Id}`);
    expect(errorFields(res)).toEqual(['deleteLinkedPullZones']);
    expect(res.body.detail).toContain(`site-cdn (${a.Id})`);
    expect((await t.get(`/storagezone/${zone.Id}`)).body.PullZones).toHaveLength(1);
    expect((await t.get(`/pullzone/${a.Id}`)).status).toBe(200);

    const bare = await create('bare');
    expect((await t.del(`/storagezone/${bare.Id}?deleteLinkedPullZones=false`)).status).toBe(204);
  });

  it('refuses to delete the storage zone of a video library on its own', async () => {
    const lib = (await t.post('/videolibrary', { Name: 'Videos' })).body;
    for (const query of ['', '?deleteLinkedPullZones=false']) {
      const res = await t.del(`/storagezone/${lib.StorageZoneId}${query}`);
      expectErrorBody(res, 400);
      expect(errorFields(res)).toEqual(['id']);
      expect(res.body.detail).toContain(`video library ${lib.Id}`);
    }
    expect((await t.get(`/storagezone/${lib.StorageZoneId}`)).body.PullZones.map((z: { Id: number }) => z.Id)).toEqual([lib.PullZoneId]);
    expect((await t.get(`/pullzone/${lib.PullZoneId}`)).status).toBe(200);
  });

  it('answers 404 for unknown, foreign and already deleted zones', async () => {
    const zone = await create();
    const other = await t.newAccount();
    expectErrorBody(await t.del(`/storagezone/${zone.Id}`, undefined, other.key), 404);
    expectErrorBody(await t.del('/storagezone/999999'), 404);
    expect((await t.get(`/storagezone/${zone.Id}`)).status).toBe(200);
    expect((await t.del(`/storagezone/${zone.Id}`)).status).toBe(204);
    expectErrorBody(await t.del(`/storagezone/${zone.Id}`), 404);
  });

  it.each(['0', 'abc'])('answers 400 naming id for the id %s', async (id) => {
    const res = await t.del(`/storagezone/${id}`);
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['id']);
  });

  it('answers 400 naming deleteLinkedPullZones for a value that is not a boolean', async () => {
    const zone = await create();
    const res = await t.del(`/storagezone/${zone.Id}?deleteLinkedPullZones=maybe`);
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['deleteLinkedPullZones']);
  });
});
