import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResourceKind } from '../../../src/store/types.js';
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
afterEach(() => {
  vi.restoreAllMocks();
});

const count = async (kind: ResourceKind) => (await t.store.docs.list(kind, t.accountId, { offset: 0, limit: 100 })).total;
const expectNothingStored = async () => {
  expect(await count('videoLibrary')).toBe(0);
  expect(await count('storageZone')).toBe(0);
  expect(await count('pullZone')).toBe(0);
};

describe('POST /videolibrary: rejected requests', () => {
  it.each([
    [0, 'x264,vp9'],
    [0, 'hevc'],
    [null, 'av1'],
    [undefined, 'x264, av1'],
  ])('refuses premium codecs on the free tier (EncodingTier %s, OutputCodecs %s) with a 400 naming OutputCodecs', async (tier, codecs) => {
    const res = await t.post('/videolibrary', { Name: 'Free', EncodingTier: tier, OutputCodecs: codecs });
    expectErrorBody(res, 400, '/videolibrary');
    expect(errorFields(res)).toEqual(['OutputCodecs']);
    expect(res.body.ErrorKey).toBe('videolibrary.output_codecs_invalid');
    expect(res.body.detail).toContain('x264');
    await expectNothingStored();
  });

  it.each(['h264', 'x264,', 'x264;vp9', ''])('refuses OutputCodecs %j, which is not a list of known codecs', async (codecs) => {
    const res = await t.post('/videolibrary', { Name: 'Bad', EncodingTier: 1, OutputCodecs: codecs });
    expectErrorBody(res, 400, '/videolibrary');
    expect(errorFields(res)).toEqual(['OutputCodecs']);
  });

  it('refuses just-in-time encoding on the free tier', async () => {
    const res = await t.post('/videolibrary', { Name: 'Jit', JitEncodingEnabled: true });
    expectErrorBody(res, 400, '/videolibrary');
    expect(errorFields(res)).toEqual(['JitEncodingEnabled']);
    expect((await t.post('/videolibrary', { Name: 'Jit', EncodingTier: 1, JitEncodingEnabled: true })).status).toBe(201);
  });

  it.each([
    [['XX'], 'ReplicationRegions[0]'],
    [['NY', 'ny'], 'ReplicationRegions[1]'],
    [['NY', 'NY'], 'ReplicationRegions'],
    ['NY', 'ReplicationRegions'],
  ])('refuses ReplicationRegions %j with a 400 naming %s', async (regions, field) => {
    const res = await t.post('/videolibrary', { Name: 'Regions', ReplicationRegions: regions });
    expectErrorBody(res, 400, '/videolibrary');
    expect(errorFields(res)).toEqual([field]);
    await expectNothingStored();
  });

  it('accepts every replication region the platform knows, and null', async () => {
    expect((await t.post('/videolibrary', { Name: 'All', ReplicationRegions: ['DE', 'NY', 'LA', 'SG', 'SYD'] })).status).toBe(201);
    expect((await t.post('/videolibrary', { Name: 'None', ReplicationRegions: null })).body.ReplicationRegions).toEqual([]);
  });

  it.each([
    [{}, 'a missing Name'],
    [{ Name: '' }, 'an empty Name'],
    [{ Name: null }, 'a null Name'],
    [{ Name: 42 }, 'a numeric Name'],
  ])('refuses %j (%s) with a 400 naming Name', async (body, _why) => {
    const res = await t.post('/videolibrary', body);
    expectErrorBody(res, 400, '/videolibrary');
    expect(errorFields(res)).toEqual(['Name']);
    await expectNothingStored();
  });

  it.each([
    [{ Name: 'x', EncodingTier: 2 }, 'EncodingTier'],
    [{ Name: 'x', EnabledResolutions: '4320p' }, 'EnabledResolutions'],
    [{ Name: 'x', PlayerVersion: 'two' }, 'PlayerVersion'],
    [{ Name: 'x', KeepOriginalFiles: 'yes' }, 'KeepOriginalFiles'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const res = await t.post('/videolibrary', body);
    expectErrorBody(res, 400, '/videolibrary');
    expect(errorFields(res)).toEqual([field]);
  });

  it('answers bad JSON with 400 and no body at all with 400', async () => {
    expectErrorBody(await t.request('POST', '/videolibrary', '{"Name":'), 400, '/videolibrary');
    expectErrorBody(await t.post('/videolibrary'), 400, '/videolibrary');
    await expectNothingStored();
  });

  it('leaves no storage zone or pull zone behind when the library itself cannot be stored', async () => {
    vi.spyOn(t.app.services.videoLibraries.libraries, 'insert').mockRejectedValueOnce(new Error('disk full'));
    expectErrorBody(await t.post('/videolibrary', { Name: 'Doomed', ReplicationRegions: ['NY'] }), 500, '/videolibrary');
    await expectNothingStored();
    // The store is usable afterwards, and the next library gets working zones.
    const lib = (await t.post('/videolibrary', { Name: 'Fine' })).body;
    expect((await t.get(`/storagezone/${lib.StorageZoneId}`)).body.PullZones).toHaveLength(1);
    expect(await count('storageZone')).toBe(1);
    expect(await count('pullZone')).toBe(1);
  });
});

describe('GET /videolibrary/{id}: errors', () => {
  it('answers 404 for an unknown id', async () => {
    expectErrorBody(await t.get('/videolibrary/999999'), 404, '/videolibrary/999999');
  });

  it('answers 404 for the id of a pull zone or storage zone that is not a library', async () => {
    const lib = (await t.post('/videolibrary', { Name: 'Lib' })).body;
    const strayId = Math.max(lib.Id, lib.PullZoneId, lib.StorageZoneId) + 1;
    expectErrorBody(await t.get(`/videolibrary/${strayId}`), 404);
  });

  it.each(['0', '-1', 'abc', '1.5', '9223372036854775808'])('answers 400 for the id %s', async (id) => {
    const res = await t.get(`/videolibrary/${id}`);
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['id']);
  });
});
