import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StorageZone } from '../../../src/schemas/storage-zone.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validZone = ajv.compile(StorageZone);

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp({ storageDomain: 'storage.example.test' });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const create = (body: Record<string, unknown>, key?: string | null) => t.post('/storagezone', body, key);

describe('POST /storagezone', () => {
  it('answers 201 with the full zone, generated credentials and a regional hostname', async () => {
    const res = await create({ Name: 'assets', Region: 'NY', ReplicationRegions: ['DE', 'SYD'] });
    expect(res.status).toBe(201);
    expect(validZone(res.body), JSON.stringify(validZone.errors)).toBe(true);
    expect(res.body).toMatchObject({
      Name: 'assets',
      Region: 'NY',
      ReplicationRegions: ['DE', 'SYD'],
      StorageHostname: 'ny.storage.example.test',
      Deleted: false,
      ReplicationChangeInProgress: false,
      ZoneTier: 0,
      StorageZoneType: 0,
      PullZones: [],
      StorageUsed: 0,
      FilesStored: 0,
    });
    expect(res.body.Password).toMatch(/^[0-9a-f-]{40,}$/);
    expect(res.body.ReadOnlyPassword).toMatch(/^[0-9a-f-]{40,}$/);
    expect(res.body.Password).not.toBe(res.body.ReadOnlyPassword);
    expect((await create({ Name: 'main', Region: 'DE' })).body.StorageHostname).toBe('storage.example.test');
  });

  it.each(['DE', 'NY', 'LA', 'SG'])('accepts main region %s', async (region) => {
    expect((await create({ Name: `z-${region}`, Region: region })).status).toBe(201);
  });

  it.each([
    [{ Name: 'z', Region: 'SYD' }, 'Region'],
    [{ Name: 'z', Region: '' }, 'Region'],
    [{ Name: 'z', Region: 'de' }, 'Region'],
    [{ Name: 'z' }, 'Region'],
    [{ Name: '', Region: 'DE' }, 'Name'],
    [{ Region: 'DE' }, 'Name'],
    [{ Name: 'bad name', Region: 'DE' }, 'Name'],
    [{ Name: 'z', Region: 'DE', ReplicationRegions: ['NY', 'XX'] }, 'ReplicationRegions[1]'],
    [{ Name: 'z', Region: 'DE', ReplicationRegions: ['NY', 'NY'] }, 'ReplicationRegions'],
    [{ Name: 'z', Region: 'DE', ReplicationRegions: ['NY', 'DE'] }, 'ReplicationRegions[1]'],
    [{ Name: 'z', Region: 'DE', ZoneTier: 2 }, 'ZoneTier'],
    [{ Name: 'z', Region: 'DE', StorageZoneType: -1 }, 'StorageZoneType'],
  ])('rejects %j naming %s', async (body, field) => {
    const res = await create(body);
    expectErrorBody(res, 400, '/storagezone');
    expect(errorFields(res)).toEqual([field]);
    expect(res.body.Field).toBe(field);
    expect((await t.get('/storagezone/1')).status).toBe(404);
  });

  it.each(['DE', 'NY', 'LA', 'SG', 'SYD'])('accepts replication region %s', async (region) => {
    const main = region === 'SG' ? 'DE' : 'SG';
    const res = await create({ Name: `r-${region}`, Region: main, ReplicationRegions: [region] });
    expect(res.status).toBe(201);
    expect(res.body.ReplicationRegions).toEqual([region]);
  });

  it('keeps names unique platform-wide and binds names case-insensitively', async () => {
    expect((await create({ name: 'shared', region: 'DE', replicationregions: null })).status).toBe(201);
    const other = await t.newAccount();
    const clash = await create({ Name: 'Shared', Region: 'NY' }, other.key);
    expectErrorBody(clash, 400);
    expect(errorFields(clash)).toEqual(['Name']);
  });

  it('requires a writing key', async () => {
    expectErrorBody(await create({ Name: 'z', Region: 'DE' }, null), 401);
    const ro = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expectErrorBody(await create({ Name: 'z', Region: 'DE' }, ro), 403);
  });
});

describe('GET /storagezone/{id}', () => {
  it('lists the pull zones whose StorageZoneId is this zone', async () => {
    const sz = (await create({ Name: 'files', Region: 'DE' })).body;
    const pz = (await t.post('/pullzone', { Name: 'files-cdn', StorageZoneId: sz.Id })).body;
    await t.post('/pullzone', { Name: 'unrelated', OriginUrl: 'https://o.example' });
    const res = await t.get(`/storagezone/${sz.Id}`);
    expect(res.status).toBe(200);
    expect(validZone(res.body)).toBe(true);
    expect(res.body.PullZones.map((z: { Id: number }) => z.Id)).toEqual([pz.Id]);
  });

  it('answers 404 for unknown and foreign ids and keeps data across a restart', async () => {
    const sz = (await create({ Name: 'files', Region: 'LA', ReplicationRegions: ['SYD'] })).body;
    const other = await t.newAccount();
    expectErrorBody(await t.get(`/storagezone/${sz.Id}`, other.key), 404);
    expectErrorBody(await t.get('/storagezone/424242'), 404);
    await t.restart();
    expect((await t.get(`/storagezone/${sz.Id}`)).body).toEqual(sz);
  });

  it('stores no credential in clear', async () => {
    const sz = (await create({ Name: 'secretive', Region: 'DE' })).body;
    const raw = JSON.stringify(await t.store.docs.get('storageZone', t.accountId, String(sz.Id)));
    expect(raw).not.toContain(sz.Password);
    expect(raw).not.toContain(sz.ReadOnlyPassword);
  });
});
