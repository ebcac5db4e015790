import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Paged } from '../../../src/schemas/paging.js';
import { PullZone } from '../../../src/schemas/pull-zone.js';
import { PullZoneCount } from '../../../src/planes/api/routes/pull-zones/bodies.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { CDN_DOMAIN, createZone, expectShape } from './support.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
});
afterEach(async () => {
  await t.close();
});

const names = (zones: { Name: string }[]) => zones.map((z) => z.Name);

describe('GET /pullzone', () => {
  it('answers every zone of the account as a plain array, oldest first, without certificates', async () => {
    expect((await t.get('/pullzone')).body).toEqual([]);
    const first = await createZone(t, 'zeta');
    await createZone(t, 'alpha');
    await createZone(t, 'mid', {}, (await t.newAccount()).key);

    for (const url of ['/pullzone', '/pullzone?page=0']) {
      const res = await t.get(url);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      for (const zone of res.body) expectShape(PullZone, zone);
      expect(names(res.body)).toEqual(['zeta', 'alpha']);
      expect(res.body[0]).toEqual(first);
    }
  });

  it('answers page objects from page 1 on, perPage at a time', async () => {
    for (let i = 0; i < 7; i++) await createZone(t, `zone-${i}`);
    const one = await t.get('/pullzone?page=1&perPage=5');
    expect(one.status).toBe(200);
    expectShape(Paged(PullZone), one.body);
    expect(Object.keys(one.body)).toEqual(['Items', 'CurrentPage', 'TotalItems', 'HasMoreItems']);
    expect(one.body).toMatchObject({ CurrentPage: 1, TotalItems: 7, HasMoreItems: true });
    expect(names(one.body.Items)).toEqual(['zone-0', 'zone-1', 'zone-2', 'zone-3', 'zone-4']);

    const two = (await t.get('/pullzone?page=2&perPage=5')).body;
    expect(two).toMatchObject({ CurrentPage: 2, TotalItems: 7, HasMoreItems: false });
    expect(names(two.Items)).toEqual(['zone-5', 'zone-6']);
    expect((await t.get('/pullzone?page=3&perPage=5')).body).toEqual({ Items: [], CurrentPage: 3, TotalItems: 7, HasMoreItems: false });
    expect((await t.get('/pullzone?page=1')).body).toMatchObject({ TotalItems: 7, HasMoreItems: false });
  });

  it('filters by a case-insensitive part of the name', async () => {
    await createZone(t, 'Images-EU');
    await createZone(t, 'videos');
    await createZone(t, 'images-us');
    expect(names((await t.get('/pullzone?search=IMAGES')).body)).toEqual(['Images-EU', 'images-us']);
    expect((await t.get('/pullzone?search=images&page=1&perPage=5')).body).toMatchObject({ TotalItems: 2, HasMoreItems: false });
    expect((await t.get('/pullzone?search=nothing')).body).toEqual([]);
    expect(names((await t.get('/pullzone?search=')).body)).toHaveLength(3);
  });

  it('includes certificates only when asked', async () => {
    const zone = await createZone(t);
    const repo = t.app.services.pullZones.zones;
    const stored = await repo.get(t.store, t.accountId, zone.Id);
    const [system] = stored.doc.Hostnames!;
    await repo.update(t.store, t.accountId, stored, { ...stored.doc, Hostnames: [{ ...system!, Certificate: 'CERT', CertificateKey: 'KEY' }] });
    expect((await t.get('/pullzone')).body[0].Hostnames[0]).toMatchObject({ Certificate: '', CertificateKey: '' });
    expect((await t.get('/pullzone?includeCertificate=true')).body[0].Hostnames[0]).toMatchObject({ Certificate: 'CERT', CertificateKey: 'KEY' });
    expect((await t.get('/pullzone?page=1&includeCertificate=true')).body.Items[0].Hostnames[0].CertificateKey).toBe('KEY');
  });

  it('checks page and perPage bounds', async () => {
    for (const [query, field] of [
      ['page=-1', 'page'],
      ['page=2147483648', 'page'],
      ['page=x', 'page'],
      ['page=1&perPage=4', 'perPage'],
      ['page=1&perPage=1001', 'perPage'],
      ['includeCertificate=maybe', 'includeCertificate'],
    ] as const) {
      const res = await t.get(`/pullzone?${query}`);
      expectErrorBody(res, 400, '/pullzone');
      expect(errorFields(res)).toEqual([field]);
    }
    expect((await t.get('/pullzone?page=2147483647&perPage=1000')).body).toMatchObject({ Items: [], CurrentPage: 2147483647 });
    expect((await t.get('/pullzone?page=1&perPage=5')).status).toBe(200);
  });

  it('needs a valid key; a read-only key may list', async () => {
    expectErrorBody(await t.get('/pullzone', null), 401);
    expectErrorBody(await t.get('/pullzone', 'wrong'), 401);
    const ro = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expect((await t.get('/pullzone', ro)).status).toBe(200);
  });
});

describe('GET /pullzone/count', () => {
  it('counts the zones of the account only', async () => {
    const empty = await t.get('/pullzone/count');
    expect(empty.status).toBe(200);
    expectShape(PullZoneCount, empty.body);
    expect(empty.body).toEqual({ Count: 0 });
    await createZone(t, 'one');
    await createZone(t, 'two');
    const other = await t.newAccount();
    await createZone(t, 'theirs', {}, other.key);
    expect((await t.get('/pullzone/count')).body).toEqual({ Count: 2 });
    expect((await t.get('/pullzone/count', other.key)).body).toEqual({ Count: 1 });
    expectErrorBody(await t.get('/pullzone/count', null), 401);
  });
});
