import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Paged } from '../../../src/schemas/paging.js';
import { VideoLibrary } from '../../../src/schemas/video-library.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validPage = ajv.compile(Paged(VideoLibrary));

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

const create = async (Name: string, key?: string) => (await t.post('/videolibrary', { Name }, key)).body;
const names = (items: { Name: string }[]) => items.map((l) => l.Name);

describe('GET /videolibrary', () => {
  it('answers the page object, page 1 by default, with full libraries of this account only', async () => {
    const first = await create('Lectures');
    await create('Trailers');
    await create('Theirs', (await t.newAccount()).key);
    const res = await t.get('/videolibrary');
    expect(res.status).toBe(200);
    expect(validPage(res.body), JSON.stringify(validPage.errors)).toBe(true);
    expect(res.body).toMatchObject({ CurrentPage: 1, TotalItems: 2, HasMoreItems: false });
    expect(names(res.body.Items)).toEqual(['Lectures', 'Trailers']);
    expect(res.body.Items[0]).toEqual(first);
  });

  it('pages in creation order', async () => {
    for (let i = 1; i <= 6; i++) await create(`Library ${i}`);
    const first = (await t.get('/videolibrary?page=1&perPage=5')).body;
    expect(first).toMatchObject({ CurrentPage: 1, TotalItems: 6, HasMoreItems: true });
    expect(first.Items).toHaveLength(5);
    const second = (await t.get('/videolibrary?page=2&perPage=5')).body;
    expect(second).toMatchObject({ CurrentPage: 2, TotalItems: 6, HasMoreItems: false });
    expect(names(second.Items)).toEqual(['Library 6']);
    expect((await t.get('/videolibrary?page=9&perPage=5')).body).toEqual({ Items: [], CurrentPage: 9, TotalItems: 6, HasMoreItems: false });
  });

  it('filters by a case-insensitive part of the name', async () => {
    await create('Cooking Show');
    await create('News');
    const res = (await t.get('/videolibrary?search=COOK')).body;
    expect(res).toMatchObject({ TotalItems: 1, HasMoreItems: false });
    expect(names(res.Items)).toEqual(['Cooking Show']);
    expect((await t.get('/videolibrary?search=zzz')).body.TotalItems).toBe(0);
  });

  it('pages what a search matches, and counts only that', async () => {
    for (let i = 1; i <= 6; i++) await create(`Show ${i}`);
    await create('News');
    const second = (await t.get('/videolibrary?page=2&perPage=5&search=show')).body;
    expect(second).toMatchObject({ CurrentPage: 2, TotalItems: 6, HasMoreItems: false });
    expect(names(second.Items)).toEqual(['Show 6']);
    expect((await t.get('/videolibrary?page=1&perPage=5')).body).toMatchObject({ TotalItems: 7, HasMoreItems: true });
  });

  it('leaves deleted libraries out', async () => {
    const gone = await create('Gone');
    await create('Kept');
    expect((await t.del(`/videolibrary/${gone.Id}`)).status).toBe(204);
    expect(names((await t.get('/videolibrary')).body.Items)).toEqual(['Kept']);
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['perPage=4', 'perPage'],
    ['perPage=1001', 'perPage'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const res = await t.get(`/videolibrary?${query}`);
    expectErrorBody(res, 400, '/videolibrary');
    expect(errorFields(res)).toEqual([field]);
  });

  it('accepts the perPage bounds 5 and 1000', async () => {
    await create('One');
    expect((await t.get('/videolibrary?perPage=5')).body.TotalItems).toBe(1);
    expect((await t.get('/videolibrary?perPage=1000')).body.TotalItems).toBe(1);
  });
});
