/** `GET /search`: the account's resources found by name or host name, a page at a time. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const search = async (query: string, key?: string) => {
  const res = await t.get(`/search${query}`, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

async function populate() {
  const pull = (await t.post('/pullzone', { Name: 'shop-assets', OriginUrl: 'https://origin.example.com' })).body;
  await t.post(`/pullzone/${pull.Id}/addHostname`, { Hostname: 'static.brand.example' });
  const storage = (await t.post('/storagezone', { Name: 'shop-files', Region: 'DE' })).body;
  const gone = (await t.post('/storagezone', { Name: 'shop-old', Region: 'DE' })).body;
  await t.del(`/storagezone/${gone.Id}`);
  const dns = (await t.post('/dnszone', { Domain: 'brand.example' })).body;
  const library = (await t.post('/videolibrary', { Name: 'Shop Videos' })).body;
  const app = (
    await t.post('/mc/apps', {
      name: 'shop api',
      runtimeType: 'shared',
      autoScaling: { min: 1, max: 1 },
      regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
    })
  ).body;
  return { pull, storage, dns, library, app };
}

describe('GET /search', () => {
  it('finds resources of every kind by name, in any letter case, skipping deleted ones', async () => {
    const { pull, storage, library, app } = await populate();
    expect(await search('?search=SHOP')).toEqual({
      Query: 'SHOP',
      Total: 4,
      From: 0,
      Size: 20,
      SearchResults: [
        { Type: 'cdn', Id: pull.Id, Name: 'shop-assets', AppId: null },
        { Type: 'storage', Id: storage.Id, Name: 'shop-files', AppId: null },
        { Type: 'stream', Id: library.Id, Name: 'Shop Videos', AppId: null },
        { Type: 'containers', Id: 0, Name: 'shop api', AppId: app.id },
      ],
    });
  });

  it('finds pull zones by their host names and DNS zones by domain', async () => {
    const { pull, dns } = await populate();
    const found = await search('?search=brand.example');
    expect(found.SearchResults).toEqual([
      { Type: 'cdn', Id: pull.Id, Name: 'shop-assets', AppId: null },
      { Type: 'dns', Id: dns.Id, Name: 'brand.example', AppId: null },
    ]);
    expect((await search('?search=nothing-like-it')).SearchResults).toEqual([]);
  });

  it('pages with from and size; no search text lists everything', async () => {
    await populate();
    const all = await search('');
    // Five resources, and the pull zone and storage zone the video library brought with it.
    expect(all.Total).toBe(7);
    const page = await search('?from=2&size=2');
    expect(page).toMatchObject({ Query: null, Total: 7, From: 2, Size: 2 });
    expect(page.SearchResults).toEqual(all.SearchResults.slice(2, 4));
    expect((await search('?from=10')).SearchResults).toEqual([]);
  });

  it("never shows another account's resources; a read-only key searches too", async () => {
    await populate();
    const other = await t.newAccount();
    expect(await search('?search=shop', other.key)).toMatchObject({ Total: 0, SearchResults: [] });
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expect((await search('?search=shop', readOnly)).Total).toBe(4);
  });

  it('answers 400 naming a bad from or size, 401 without a key', async () => {
    for (const [query, field] of [
      ['?from=-1', 'from'],
      ['?size=0', 'size'],
      ['?size=1001', 'size'],
      ['?size=ten', 'size'],
    ]) {
      const res = await t.get(`/search${query}`);
      expectErrorBody(res, 400, '/search');
      expect(errorFields(res)).toEqual([field]);
    }
    expectErrorBody(await t.get('/search', null), 401, '/search');
  });
});
