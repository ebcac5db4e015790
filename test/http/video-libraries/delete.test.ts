import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResourceKind } from '../../../src/store/types.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.close();
});

const create = async (Name = 'Lectures') => (await t.post('/videolibrary', { Name })).body;
const count = async (kind: ResourceKind) => (await t.store.docs.list(kind, t.accountId, { offset: 0, limit: 100 })).total;

describe('DELETE /videolibrary/{id}', () => {
  it('answers 204 and deletes the library with its pull zone and storage zone', async () => {
    const lib = await create();
    const kept = await create('Kept');
    const res = await t.del(`/videolibrary/${lib.Id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');

    expectErrorBody(await t.get(`/videolibrary/${lib.Id}`), 404);
    expectErrorBody(await t.get(`/pullzone/${lib.PullZoneId}`), 404);
    expectErrorBody(await t.get(`/storagezone/${lib.StorageZoneId}`), 404);
    const zones = (await t.get('/storagezone?includeDeleted=true')).body as { Id: number; Deleted: boolean }[];
    expect(zones.map((z) => [z.Id, z.Deleted])).toEqual([
      [lib.StorageZoneId, true],
      [kept.StorageZoneId, false],
    ]);
    expect((await t.get(`/videolibrary/${kept.Id}`)).body).toEqual(kept);
    expect((await t.get(`/pullzone/${kept.PullZoneId}`)).status).toBe(200);
    await t.restart();
    expectErrorBody(await t.get(`/videolibrary/${lib.Id}`), 404);
  });

  it("also deletes pull zones the account pointed at the library's storage zone", async () => {
    const lib = await create();
    const extra = (await t.post('/pullzone', { Name: 'extra-cdn', StorageZoneId: lib.StorageZoneId })).body;
    expect((await t.del(`/videolibrary/${lib.Id}`)).status).toBe(204);
    expectErrorBody(await t.get(`/pullzone/${extra.Id}`), 404);
    expect(await count('pullZone')).toBe(0);
  });

  it("is the only way to delete the library's zones", async () => {
    const lib = await create();
    const pull = await t.del(`/pullzone/${lib.PullZoneId}`);
    expectErrorBody(pull, 400);
    expect(errorFields(pull)).toEqual(['id']);
    const storage = await t.del(`/storagezone/${lib.StorageZoneId}`);
    expectErrorBody(storage, 400);
    expect(errorFields(storage)).toEqual(['id']);
    expect((await t.get(`/videolibrary/${lib.Id}`)).body).toEqual(lib);
    expect((await t.get(`/storagezone/${lib.StorageZoneId}`)).body.PullZones.map((z: { Id: number }) => z.Id)).toEqual([lib.PullZoneId]);
  });

  it('deletes nothing when any part of the deletion fails', async () => {
    const lib = await create();
    vi.spyOn(t.app.services.videoLibraries.libraries, 'delete').mockRejectedValueOnce(new Error('disk full'));
    expectErrorBody(await t.del(`/videolibrary/${lib.Id}`), 500);
    expect((await t.get(`/videolibrary/${lib.Id}`)).body).toEqual(lib);
    expect((await t.get(`/pullzone/${lib.PullZoneId}`)).status).toBe(200);
    expect((await t.get(`/storagezone/${lib.StorageZoneId}`)).body.Deleted).toBe(false);
  });

  it('answers 404 for unknown, foreign and already deleted libraries', async () => {
    const lib = await create();
    const other = await t.newAccount();
    expectErrorBody(await t.del(`/videolibrary/${lib.Id}`, undefined, other.key), 404, `/videolibrary/${lib.Id}`);
    expectErrorBody(await t.del('/videolibrary/999999'), 404);
    expect((await t.get(`/videolibrary/${lib.Id}`)).status).toBe(200);
    expect((await t.del(`/videolibrary/${lib.Id}`)).status).toBe(204);
    expectErrorBody(await t.del(`/videolibrary/${lib.Id}`), 404);
  });
});
