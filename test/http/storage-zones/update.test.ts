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

const create = async (body: Record<string, unknown> = {}) => (await t.post('/storagezone', { Name: 'files', Region: 'NY', ...body })).body;
const update = (id: number, body: unknown, key?: string) => t.post(`/storagezone/${id}`, body, key);
const read = async (id: number) => (await t.get(`/storagezone/${id}`)).body;

describe('POST /storagezone/{id}', () => {
  it('answers 204 and changes only the fields sent', async () => {
    const zone = await create();
    t.clock.advance(60_000);
    const res = await update(zone.Id, { Rewrite404To200: true, Custom404FilePath: '/404.html', OriginUrl: 'https://origin.example.com' });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const after = await read(zone.Id);
    expect(after).toEqual({
      ...zone,
      Rewrite404To200: true,
      Custom404FilePath: '/404.html',
      DateModified: new Date(Date.parse(zone.DateModified) + 60_000).toISOString(),
    });

    // The origin is kept for the file service but is not part of the zone's response model.
    const stored = async () => (await t.store.docs.get<{ OriginUrl?: string | null }>('storageZone', t.accountId, String(zone.Id)))?.doc.OriginUrl;
    expect(await stored()).toBe('https://origin.example.com');

    expect((await update(zone.Id, { Rewrite404To200: null, Custom404FilePath: null, OriginUrl: null })).status).toBe(204);
    expect(await stored()).toBe('https://origin.example.com');
    expect(await read(zone.Id)).toMatchObject({ Rewrite404To200: true, Custom404FilePath: '/404.html' });
    expect((await update(zone.Id, { custom404filepath: '', rewrite404to200: false, originurl: '' })).status).toBe(204);
    expect(await read(zone.Id)).toMatchObject({ Rewrite404To200: false, Custom404FilePath: null });
    expect(await stored()).toBeNull();
  });

  it('adds the replication regions named, keeps those it has, and never removes one', async () => {
    const zone = await create({ ReplicationRegions: ['DE'] });
    expect((await update(zone.Id, { ReplicationZones: ['SYD', 'DE'] })).status).toBe(204);
    // In progress until the background job has enabled SYD (see replication.test.ts).
    expect(await read(zone.Id)).toMatchObject({ ReplicationRegions: ['DE', 'SYD'], ReplicationChangeInProgress: true });
    expect((await update(zone.Id, { ReplicationZones: ['LA'] })).status).toBe(204);
    expect((await read(zone.Id)).ReplicationRegions).toEqual(['DE', 'SYD', 'LA']);
    expect((await update(zone.Id, { ReplicationZones: [] })).status).toBe(204);
    expect((await read(zone.Id)).ReplicationRegions).toEqual(['DE', 'SYD', 'LA']);
  });

  it.each([
    [{ ReplicationZones: ['LA', 'NY'] }, 'ReplicationZones[1]'],
    [{ ReplicationZones: ['XX'] }, 'ReplicationZones[0]'],
    [{ ReplicationZones: ['LA', 'LA'] }, 'ReplicationZones'],
    [{ ReplicationZones: 'LA' }, 'ReplicationZones'],
    [{ OriginUrl: 'ftp://files.example.com' }, 'OriginUrl'],
    [{ OriginUrl: 'not a url' }, 'OriginUrl'],
    [{ Rewrite404To200: 'yes' }, 'Rewrite404To200'],
    [{ Custom404FilePath: 404 }, 'Custom404FilePath'],
  ])('refuses %j with a 400 naming %s and changes nothing', async (body, field) => {
    const zone = await create();
    const res = await update(zone.Id, body);
    expectErrorBody(res, 400, `/storagezone/${zone.Id}`);
    expect(errorFields(res)).toEqual([field]);
    expect(await read(zone.Id)).toEqual(zone);
  });

  it('answers 404 for unknown, foreign and deleted zones', async () => {
    const zone = await create();
    const other = await t.newAccount();
    expectErrorBody(await update(zone.Id, { Rewrite404To200: true }, other.key), 404);
    expectErrorBody(await update(999_999, { Rewrite404To200: true }), 404);
    expect((await t.del(`/storagezone/${zone.Id}`)).status).toBe(204);
    expectErrorBody(await update(zone.Id, { Rewrite404To200: true }), 404);
    expect(await read(zone.Id)).toMatchObject({ status: 404 });
  });

  it('keeps a video library showing the regions its storage zone gained', async () => {
    const lib = (await t.post('/videolibrary', { Name: 'Videos', ReplicationRegions: ['NY'] })).body;
    expect((await update(lib.StorageZoneId, { ReplicationZones: ['SG'] })).status).toBe(204);
    expect((await read(lib.StorageZoneId)).ReplicationRegions).toEqual(['NY', 'SG']);
    expect((await t.get(`/videolibrary/${lib.Id}`)).body.ReplicationRegions).toEqual(['NY', 'SG']);
  });
});
