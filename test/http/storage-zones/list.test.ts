import { Type } from 'typebox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Paged } from '../../../src/schemas/paging.js';
import { StorageZone } from '../../../src/schemas/storage-zone.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validArray = ajv.compile(Type.Array(StorageZone));
const validPage = ajv.compile(Paged(StorageZone));

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

const create = async (Name: string, key?: string) => (await t.post('/storagezone', { Name, Region: 'DE' }, key)).body;
const names = (zones: { Name: string }[]) => zones.map((z) => z.Name);

describe('GET /storagezone', () => {
  it('answers every zone of the account as a bare array when no page is asked for', async () => {
    const a = await create('alpha');
    await create('beta');
    await t.post('/pullzone', { Name: 'alpha-cdn', StorageZoneId: a.Id });
    await create('theirs', (await t.newAccount()).key);

    for (const url of ['/storagezone', '/storagezone?page=0']) {
      const res = await t.get(url);
      expect(res.status).toBe(200);
      expect(validArray(res.body), JSON.stringify(validArray.errors)).toBe(true);
      expect(names(res.body)).toEqual(['alpha', 'beta']);
      expect(res.body[0]).toEqual((await t.get(`/storagezone/${a.Id}`)).body);
      expect(res.body[0].PullZones.map((z: { Name: string }) => z.Name)).toEqual(['alpha-cdn']);
    }
  });

  it('answers the page object from page 1 on', async () => {
    for (let i = 1; i <= 7; i++) await create(`zone-${i}`);
    const first = await t.get('/storagezone?page=1&perPage=5');
    expect(first.status).toBe(200);
    expect(validPage(first.body), JSON.stringify(validPage.errors)).toBe(true);
    expect(first.body).toMatchObject({ CurrentPage: 1, TotalItems: 7, HasMoreItems: true });
    expect(names(first.body.Items)).toEqual(['zone-1', 'zone-2', 'zone-3', 'zone-4', 'zone-5']);
    const second = (await t.get('/storagezone?page=2&perPage=5')).body;
    expect(second).toMatchObject({ CurrentPage: 2, TotalItems: 7, HasMoreItems: false });
    expect(names(second.Items)).toEqual(['zone-6', 'zone-7']);
    expect((await t.get('/storagezone?page=3&perPage=5')).body).toEqual({ Items: [], CurrentPage: 3, TotalItems: 7, HasMoreItems: false });
  });

  it('filters by a case-insensitive part of the name', async () => {
    await create('Media-Files');
    await create('backups');
    expect(names((await t.get('/storagezone?search=MEDIA')).body)).toEqual(['Media-Files']);
    expect((await t.get('/storagezone?search=nothing')).body).toEqual([]);
    expect((await t.get('/storagezone?page=1&search=back')).body).toMatchObject({ TotalItems: 1, Items: [expect.objectContaining({ Name: 'backups' })] });
  });

  it('shows deleted zones only when includeDeleted is true', async () => {
    const gone = await create('gone');
    await create('kept');
    expect((await t.del(`/storagezone/${gone.Id}`)).status).toBe(204);
    expect(names((await t.get('/storagezone')).body)).toEqual(['kept']);
    expect(names((await t.get('/storagezone?includeDeleted=false')).body)).toEqual(['kept']);
    const all = (await t.get('/storagezone?includeDeleted=true')).body;
    expect(validArray(all)).toBe(true);
    expect(all.map((z: { Name: string; Deleted: boolean }) => [z.Name, z.Deleted])).toEqual([
      ['gone', true],
      ['kept', false],
    ]);
    expect(names((await t.get('/storagezone?includeDeleted=true&search=GON')).body)).toEqual(['gone']);
  });

  it('pages live zones past any number of deleted ones, and pages those too when asked', async () => {
    const made: { Id: number; Name: string }[] = [];
    for (let i = 1; i <= 9; i++) made.push(await create(`zone-${i}`));
    for (const i of [0, 2, 3, 6]) expect((await t.del(`/storagezone/${made[i]!.Id}`)).status).toBe(204);
    // A deleted zone's name is free again: the new zone is live, its namesake stays a tombstone.
    await create('zone-1');

    const first = (await t.get('/storagezone?page=1&perPage=5')).body;
    expect(first).toMatchObject({ CurrentPage: 1, TotalItems: 6, HasMoreItems: true });
    expect(names(first.Items)).toEqual(['zone-2', 'zone-5', 'zone-6', 'zone-8', 'zone-9']);
    const second = (await t.get('/storagezone?page=2&perPage=5')).body;
    expect(second).toMatchObject({ CurrentPage: 2, TotalItems: 6, HasMoreItems: false });
    expect(names(second.Items)).toEqual(['zone-1']);
    expect(second.Items[0].Deleted).toBe(false);

    expect((await t.get('/storagezone?page=1&perPage=5&search=ZONE-1')).body).toMatchObject({
      TotalItems: 1,
      Items: [expect.objectContaining({ Name: 'zone-1', Deleted: false })],
    });
    const withDeleted = (await t.get('/storagezone?page=2&perPage=5&includeDeleted=true')).body;
    expect(withDeleted).toMatchObject({ CurrentPage: 2, TotalItems: 10, HasMoreItems: false });
    expect(withDeleted.Items.map((z: { Name: string; Deleted: boolean }) => [z.Name, z.Deleted])).toEqual([
      ['zone-6', false],
      ['zone-7', true],
      ['zone-8', false],
      ['zone-9', false],
      ['zone-1', false],
    ]);
    expect(names((await t.get('/storagezone?includeDeleted=true&search=zone-1')).body)).toEqual(['zone-1', 'zone-1']);
  });

  it.each([
    ['page=-1', 'page'],
    ['page=x', 'page'],
    ['page=2147483648', 'page'],
    ['page=1&perPage=4', 'perPage'],
    ['page=1&perPage=1001', 'perPage'],
    ['includeDeleted=maybe', 'includeDeleted'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const res = await t.get(`/storagezone?${query}`);
    expectErrorBody(res, 400, '/storagezone');
    expect(errorFields(res)).toEqual([field]);
  });

  it('accepts the perPage bounds 5 and 1000', async () => {
    await create('one');
    expect((await t.get('/storagezone?page=1&perPage=5')).body.TotalItems).toBe(1);
    expect((await t.get('/storagezone?page=1&perPage=1000')).body.TotalItems).toBe(1);
  });
});
