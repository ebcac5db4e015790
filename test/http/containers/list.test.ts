import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ListApplicationsResponse } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { cdnEndpoint, createApp, expectSchema, fields400, minimalTemplate } from './fixtures.js';

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

const list = async (query = '', key?: string) => {
  const res = await t.get(`/mc/apps${query}`, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectSchema(ListApplicationsResponse, res.body);
  return res.body;
};

/** Follows the cursors from the first page to the last. */
async function allPages(limit: number): Promise<{ pages: string[][]; totals: number[] }> {
  const pages: string[][] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: { id: string }[]; meta: { totalItems: number }; cursor: string | null } = await list(
      `?limit=${limit}${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    pages.push(page.items.map((i) => i.id));
    totals.push(page.meta.totalItems);
    cursor = page.cursor;
  } while (cursor !== null);
  return { pages, totals };
}

describe('GET /mc/apps', () => {
  it('answers an empty first page for an account without applications', async () => {
    expect(await list()).toEqual({ items: [], meta: { totalItems: 0 }, cursor: null });
  });

  it('lists each application with its name, display endpoint and status, oldest first', async () => {
    const plain = await createApp(t, { name: 'plain' });
    const web = await createApp(t, { name: 'web', containerTemplates: [{ ...minimalTemplate(), endpoints: [cdnEndpoint('public')] }] });
    const endpoint = (await t.get(`/mc/apps/${web}`)).body.containerTemplates[0].endpoints[0];
    expect(await list()).toEqual({
      items: [
        { id: plain, name: 'plain', description: '', status: 'inactive' },
        { id: web, name: 'web', description: '', displayEndpoint: { id: endpoint.id, address: endpoint.publicHost, type: 'cdn' }, status: 'progressing' },
      ],
      meta: { totalItems: 2 },
      cursor: null,
    });
  });

  it('pages with the cursor until it is null, each application exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createApp(t, { name: `app ${i}` }));
    const { pages, totals } = await allPages(2);
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    expect(totals).toEqual([5, 5, 5]);
    expect((await allPages(5)).pages).toEqual([ids]);
    expect((await allPages(1000)).pages).toEqual([ids]);
  });

  it('answers 20 applications when no limit is given', async () => {
    for (let i = 0; i < 21; i++) await createApp(t, { name: `app ${i}` });
    const first = await list();
    expect(first.items).toHaveLength(20);
    expect(first.meta.totalItems).toBe(21);
    const second = await list(`?nextCursor=${encodeURIComponent(first.cursor)}`);
    expect(second.items).toHaveLength(1);
    expect(second.cursor).toBeNull();
  });

  it.each([
    ['0', 400],
    ['1', 200],
    ['1000', 200],
    ['1001', 400],
    ['-1', 400],
    ['abc', 400],
    ['1.5', 400],
  ])('limit=%s → %i', async (limit, status) => {
    const res = await t.get(`/mc/apps?limit=${limit}`);
    if (status === 400) {
      expectErrorBody(res, 400);
      expect(fields400(res)).toEqual(['limit']);
    } else {
      expect(res.status).toBe(200);
    }
  });

  it('refuses a cursor it did not issue to this account, naming nextCursor', async () => {
    for (let i = 0; i < 3; i++) await createApp(t, { name: `app ${i}` });
    const cursor: string = (await list('?limit=1')).cursor;
    const flipped = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
    const other = await t.newAccount();
    await t.post('/mc/apps', { name: 'theirs', runtimeType: 'shared', autoScaling: { min: 1, max: 1 }, regionSettings: {} }, other.key);
    const theirs: string | null = (await list('?limit=1', other.key)).cursor;
    expect(theirs).toBeNull();
    for (const bad of ['garbage', flipped, Buffer.from('{"offset":1}').toString('base64url'), `v1:${'A'.repeat(60)}`]) {
      expect(fields400(await t.get(`/mc/apps?nextCursor=${encodeURIComponent(bad)}`))).toEqual(['nextCursor']);
    }
    // A genuine cursor of this account, presented by another account.
    expect(fields400(await t.get(`/mc/apps?nextCursor=${encodeURIComponent(cursor)}`, other.key))).toEqual(['nextCursor']);
  });

  it('shows each account only its own applications', async () => {
    const mine = await createApp(t);
    const other = await t.newAccount();
    expect((await list('', other.key)).items).toEqual([]);
    expect((await list()).items.map((i: { id: string }) => i.id)).toEqual([mine]);
  });

  it('leaves out deleted applications', async () => {
    const gone = await createApp(t, { name: 'gone' });
    const kept = await createApp(t, { name: 'kept' });
    expect((await t.del(`/mc/apps/${gone}`)).status).toBe(200);
    expect(await list()).toMatchObject({ items: [{ id: kept }], meta: { totalItems: 1 } });
  });

  it('is served at /apps too, whatever the case, its errors naming the address as asked', async () => {
    const appId = await createApp(t);
    expect((await t.get('/apps')).body.items.map((i: { id: string }) => i.id)).toEqual([appId]);
    expect((await t.get('/APPS?limit=5')).body.items.map((i: { id: string }) => i.id)).toEqual([appId]);
    const missing = await t.get('/registries/12345');
    expect(missing.status).toBe(404);
    // Plain problem details, as under /mc: no core-API fields.
    expect(missing.body.instance).toBe('/registries/12345');
    expect(missing.body).not.toHaveProperty('ErrorKey');
    // A path that only starts like a container one stays the core API's.
    expect((await t.get('/appsx')).status).toBe(404);
  });
});
