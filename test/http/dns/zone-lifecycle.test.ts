import type { ValidateFunction } from 'ajv';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DnsZone } from '../../../src/schemas/dns.js';
import { Paged } from '../../../src/schemas/paging.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validZone = ajv.compile(DnsZone);
const validPage = ajv.compile(Paged(DnsZone));
const expectShape = (valid: ValidateFunction<unknown>, body: unknown) => {
  if (!valid(body)) throw new Error(`unexpected shape: ${ajv.errorsText(valid.errors)}`);
};

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

const addZone = async (domain: string, key?: string) => {
  const res = await t.post('/dnszone', { Domain: domain }, key);
  expect(res.status).toBe(201);
  return res.body as { Id: number; Domain: string };
};

describe('GET /dnszone', () => {
  it("answers the page object of the account's zones, in the order they were added", async () => {
    const a = await addZone('a-example.com');
    await t.put(`/dnszone/${a.Id}/records`, { Type: 0, Name: 'www', Value: '192.0.2.1' });
    const b = await addZone('b-example.com');
    await addZone('foreign.com', (await t.newAccount()).key);

    const res = await t.get('/dnszone');
    expect(res.status).toBe(200);
    expectShape(validPage, res.body);
    expect(Object.keys(res.body)).toEqual(['Items', 'CurrentPage', 'TotalItems', 'HasMoreItems']);
    expect(res.body).toMatchObject({ CurrentPage: 1, TotalItems: 2, HasMoreItems: false });
    expect(res.body.Items.map((z: { Id: number }) => z.Id)).toEqual([a.Id, b.Id]);
    expect(res.body.Items[0]).toEqual((await t.get(`/dnszone/${a.Id}`)).body);
    expect(res.body.Items[0].Records).toHaveLength(1);
  });

  it('pages with page and perPage (5 to 1000)', async () => {
    for (let i = 0; i < 7; i++) await addZone(`zone${i}.com`);
    const first = await t.get('/dnszone?page=1&perPage=5');
    expect(first.body).toMatchObject({ CurrentPage: 1, TotalItems: 7, HasMoreItems: true });
    expect(first.body.Items.map((z: { Domain: string }) => z.Domain)).toEqual(['zone0.com', 'zone1.com', 'zone2.com', 'zone3.com', 'zone4.com']);
    const second = await t.get('/dnszone?page=2&perPage=5');
    expect(second.body).toMatchObject({ CurrentPage: 2, TotalItems: 7, HasMoreItems: false });
    expect(second.body.Items.map((z: { Domain: string }) => z.Domain)).toEqual(['zone5.com', 'zone6.com']);
    expect((await t.get('/dnszone?page=3&perPage=5')).body).toEqual({ Items: [], CurrentPage: 3, TotalItems: 7, HasMoreItems: false });
    expect((await t.get('/dnszone?perPage=1000')).body.Items).toHaveLength(7);
  });

  it.each([
    ['page=0', 'page'],
    ['page=2147483648', 'page'],
    ['page=x', 'page'],
    ['perPage=4', 'perPage'],
    ['perPage=1001', 'perPage'],
    ['view=2', 'view'],
  ])('rejects %s naming the parameter', async (query, field) => {
    const res = await t.get(`/dnszone?${query}`);
    expectErrorBody(res, 400, '/dnszone');
    expect(errorFields(res)).toEqual([field]);
  });

  it('filters by part of the domain, ignoring case', async () => {
    await addZone('shop.example.com');
    await addZone('blog.example.org');
    const res = await t.get('/dnszone?search=EXAMPLE.C');
    expect(res.body.TotalItems).toBe(1);
    expect(res.body.Items[0].Domain).toBe('shop.example.com');
    expect((await t.get('/dnszone?search=nothing')).body).toEqual({ Items: [], CurrentPage: 1, TotalItems: 0, HasMoreItems: false });
  });

  it('leaves the records out in the Lite view', async () => {
    const zone = await addZone('example.com');
    await t.put(`/dnszone/${zone.Id}/records`, { Type: 0, Value: '192.0.2.1' });
    const res = await t.get('/dnszone?view=1');
    expectShape(validPage, res.body);
    expect(res.body.Items[0]).toMatchObject({ Id: zone.Id, Domain: 'example.com', Records: [] });
    expect((await t.get('/dnszone?view=0')).body.Items[0].Records).toHaveLength(1);
  });
});

describe('POST /dnszone/{id}', () => {
  it('changes the settings sent, keeps the others, and answers 200 with the whole zone', async () => {
    const zone = await addZone('example.com');
    t.clock.advance(60_000);
    const res = await t.post(`/dnszone/${zone.Id}`, {
      LoggingEnabled: true,
      LogAnonymizationType: 1,
      CertificateKeyType: 1,
      LoggingIPAnonymizationEnabled: false,
      SoaEmail: 'dns@example.com',
    });
    expect(res.status).toBe(200);
    expectShape(validZone, res.body);
    expect(res.body).toEqual((await t.get(`/dnszone/${zone.Id}`)).body);
    expect(res.body).toMatchObject({
      LoggingEnabled: true,
      LogAnonymizationType: 1,
      CertificateKeyType: 1,
      LoggingIPAnonymizationEnabled: false,
      SoaEmail: 'dns@example.com',
      CustomNameserversEnabled: false,
      Nameserver1: `ns1.${t.config.cdnDomain}`,
      DateModified: '2026-01-01T00:01:00.000Z',
      DateCreated: '2026-01-01T00:00:00.000Z',
    });
    const again = await t.post(`/dnszone/${zone.Id}`, { loggingenabled: false, SoaEmail: null });
    expect(again.body).toMatchObject({ LoggingEnabled: false, SoaEmail: 'dns@example.com', LogAnonymizationType: 1 });
  });

  it("announces custom name servers only with CustomNameserversEnabled, and restores the platform's when turned off", async () => {
    const zone = await addZone('example.com');
    const refused = await t.post(`/dnszone/${zone.Id}`, { Nameserver1: 'ns1.example.net' });
    expectErrorBody(refused, 400, `/dnszone/${zone.Id}`);
    expect(errorFields(refused)).toEqual(['Nameserver1']);

    const custom = await t.post(`/dnszone/${zone.Id}`, { CustomNameserversEnabled: true, Nameserver1: 'NS1.example.net.', Nameserver2: 'ns2.example.net' });
    expect(custom.body).toMatchObject({ CustomNameserversEnabled: true, Nameserver1: 'ns1.example.net', Nameserver2: 'ns2.example.net' });
    // A client that sends back what it read is not refused.
    expect((await t.post(`/dnszone/${zone.Id}`, custom.body)).status).toBe(200);

    const off = await t.post(`/dnszone/${zone.Id}`, { CustomNameserversEnabled: false });
    expect(off.body).toMatchObject({ CustomNameserversEnabled: false, Nameserver1: `ns1.${t.config.cdnDomain}`, Nameserver2: `ns2.${t.config.cdnDomain}` });
    expect((await t.post(`/dnszone/${zone.Id}`, { Nameserver2: `ns2.${t.config.cdnDomain}` })).status).toBe(200);
  });

  it('rejects name servers and SOA addresses that are not host names or mail addresses, changing nothing', async () => {
    const zone = await addZone('example.com');
    const res = await t.post(`/dnszone/${zone.Id}`, {
      CustomNameserversEnabled: true,
      Nameserver1: '192.0.2.1',
      Nameserver2: 'not a host',
      SoaEmail: 'nobody',
      LoggingEnabled: true,
    });
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['Nameserver1', 'Nameserver2', 'SoaEmail']);
    expect(errorFields(await t.post(`/dnszone/${zone.Id}`, { SoaEmail: 'a b@example.com' }))).toEqual(['SoaEmail']);
    expect(errorFields(await t.post(`/dnszone/${zone.Id}`, { LogAnonymizationType: 2, CertificateKeyType: 'Rsa' }))).toEqual([
      'LogAnonymizationType',
      'CertificateKeyType',
    ]);
    const after = (await t.get(`/dnszone/${zone.Id}`)).body;
    expect(after).toMatchObject({ CustomNameserversEnabled: false, LoggingEnabled: false, SoaEmail: `hostmaster@${t.config.cdnDomain}` });
  });

  it("answers 404 for an unknown zone and for another account's, leaving it unchanged", async () => {
    expectErrorBody(await t.post('/dnszone/999999', { LoggingEnabled: true }), 404, '/dnszone/999999');
    const other = await t.newAccount();
    const foreign = await addZone('foreign.com', other.key);
    expectErrorBody(await t.post(`/dnszone/${foreign.Id}`, { LoggingEnabled: true }), 404);
    expect((await t.get(`/dnszone/${foreign.Id}`, other.key)).body.LoggingEnabled).toBe(false);
  });
});

describe('DELETE /dnszone/{id}', () => {
  it('deletes the zone with its records (204), frees the domain, and a second delete is 404', async () => {
    const zone = await addZone('example.com');
    await t.put(`/dnszone/${zone.Id}/records`, { Type: 0, Value: '192.0.2.1' });
    const res = await t.del(`/dnszone/${zone.Id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectErrorBody(await t.get(`/dnszone/${zone.Id}`), 404);
    expectErrorBody(await t.get(`/dnszone/${zone.Id}/records`), 404);
    expectErrorBody(await t.del(`/dnszone/${zone.Id}`), 404, `/dnszone/${zone.Id}`);
    expect((await t.get('/dnszone')).body.TotalItems).toBe(0);
    expect((await t.post('/dnszone/checkavailability', { Name: 'example.com' })).body).toEqual({ Available: true });
    expect((await t.post('/dnszone', { Domain: 'example.com' })).status).toBe(201);
  });

  it("answers 404 for an unknown zone and for another account's, which survives", async () => {
    expectErrorBody(await t.del('/dnszone/999999'), 404);
    const other = await t.newAccount();
    const foreign = await addZone('foreign.com', other.key);
    expectErrorBody(await t.del(`/dnszone/${foreign.Id}`), 404);
    expect((await t.get(`/dnszone/${foreign.Id}`, other.key)).status).toBe(200);
  });

  it('answers 400 for an id that is not a positive integer', async () => {
    expect(errorFields(await t.del('/dnszone/0'))).toEqual(['id']);
    expect(errorFields(await t.del('/dnszone/abc'))).toEqual(['id']);
  });
});

describe('POST /dnszone/checkavailability', () => {
  it('tells whether a domain is free, across every account and in any case', async () => {
    await addZone('taken.com', (await t.newAccount()).key);
    expect(await t.post('/dnszone/checkavailability', { Name: 'free.com' })).toMatchObject({ status: 200, body: { Available: true } });
    expect((await t.post('/dnszone/checkavailability', { Name: 'TAKEN.com.' })).body).toEqual({ Available: false });
    expect((await t.post('/dnszone/checkavailability', { name: 'taken.com' })).body).toEqual({ Available: false });
  });

  it('answers a read-only key too: checking a domain changes nothing, though it is a POST', async () => {
    await addZone('taken.com');
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    expect(await t.post('/dnszone/checkavailability', { Name: 'taken.com' }, readOnly)).toMatchObject({ status: 200, body: { Available: false } });
    expect(await t.post('/dnszone/checkavailability', { Name: 'free.com' }, readOnly)).toMatchObject({ status: 200, body: { Available: true } });
    expectErrorBody(await t.post('/dnszone', { Domain: 'free.com' }, readOnly), 403);
  });

  it('requires a domain name in Name', async () => {
    for (const body of [{}, { Name: null }, { Name: '' }, { Name: 'com' }, { Name: 'not a domain' }]) {
      const res = await t.post('/dnszone/checkavailability', body);
      expectErrorBody(res, 400, '/dnszone/checkavailability');
      expect(errorFields(res)).toEqual(['Name']);
    }
    expect(errorFields(await t.post('/dnszone/checkavailability', { Name: 5 }))).toEqual(['Name']);
  });
});
