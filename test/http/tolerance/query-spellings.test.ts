/**
 * Query parameters as the platform's ASP.NET Core binding reads them: booleans in any letter case
 * (`True`, as .NET writes them) but not `1`/`0`, parameter names in any case, the first of a
 * repeated value, blanks as absent. Integers keep their parsing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { base64, CERTIFICATE_KEY_PEM, CERTIFICATE_PEM } from '../pull-zones/fixtures.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

async function zoneWithCertificate(): Promise<number> {
  const zone = (await t.post('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com' })).body;
  expect((await t.post(`/pullzone/${zone.Id}/addHostname`, { Hostname: 'cdn.example.com' })).status).toBe(204);
  const certificate = { Hostname: 'cdn.example.com', Certificate: base64(CERTIFICATE_PEM), CertificateKey: base64(CERTIFICATE_KEY_PEM) };
  expect((await t.post(`/pullzone/${zone.Id}/addCertificate`, certificate)).status).toBe(204);
  return zone.Id as number;
}

describe('query booleans', () => {
  it('reads true and false in any letter case, with surrounding blanks', async () => {
    const id = await zoneWithCertificate();
    const withCertificate = (await t.get(`/pullzone/${id}?includeCertificate=true`)).body;
    const without = (await t.get(`/pullzone/${id}?includeCertificate=false`)).body;
    expect(withCertificate.Hostnames[1].CertificateKey).toContain(base64(CERTIFICATE_KEY_PEM).slice(0, 20));
    expect(without).not.toEqual(withCertificate);
    for (const spelling of ['True', 'TRUE', 'tRuE', '%20true%20']) {
      const res = await t.get(`/pullzone/${id}?includeCertificate=${spelling}`);
      expect({ spelling, body: res.body }).toEqual({ spelling, body: withCertificate });
    }
    for (const spelling of ['False', 'FALSE', '', '%20']) {
      const res = await t.get(`/pullzone/${id}?includeCertificate=${spelling}`);
      expect({ spelling, body: res.body }).toEqual({ spelling, body: without });
    }
  });

  it('refuses 1, 0 and other words, naming the parameter', async () => {
    const id = await zoneWithCertificate();
    for (const spelling of ['1', '0', 'yes', 'on', 't', 'truee']) {
      const res = await t.get(`/pullzone/${id}?includeCertificate=${spelling}`);
      expectErrorBody(res, 400, `/pullzone/${id}`);
      expect(errorFields(res)).toEqual(['includeCertificate']);
    }
  });

  it('applies a boolean to a write: FALSE keeps linked pull zones, an empty value is the default (true)', async () => {
    const zone = (await t.post('/storagezone', { Name: 'files', Region: 'DE' })).body;
    const linked = (await t.post('/pullzone', { Name: 'linked', StorageZoneId: zone.Id })).body;
    const refused = await t.del(`/storagezone/${zone.Id}?deleteLinkedPullZones=FALSE`);
    expectErrorBody(refused, 400);
    expect(refused.body.detail).toContain(`linked (${linked.Id})`);
    expect((await t.get(`/pullzone/${linked.Id}`)).status).toBe(200);

    expect((await t.del(`/storagezone/${zone.Id}?deleteLinkedPullZones=`)).status).toBe(204);
    expectErrorBody(await t.get(`/pullzone/${linked.Id}`), 404);
  });
});

describe('query names and values', () => {
  beforeEach(async () => {
    for (let i = 0; i < 6; i++) expect((await t.post('/apikey', {})).status).toBe(201);
  });

  it('matches parameter names in any letter case, the exact spelling winning', async () => {
    const page2 = (await t.get('/apikey?page=2&perPage=5')).body;
    expect(page2).toMatchObject({ CurrentPage: 2, TotalItems: 7 });
    expect(page2.Items).toHaveLength(2);
    expect((await t.get('/apikey?PAGE=2&PerPage=5')).body).toEqual(page2);
    expect((await t.get('/apikey?Page=1&page=2&perPage=5')).body).toEqual(page2);
  });

  it('binds the first value of a repeated parameter, skipping blanks', async () => {
    const five = (await t.get('/apikey?perPage=5')).body;
    expect(five.Items).toHaveLength(5);
    expect((await t.get('/apikey?perPage=5&perPage=1000')).body).toEqual(five);
    expect((await t.get('/apikey?perPage=&perPage=5')).body).toEqual(five);
  });

  it('keeps integers strict: words and fractions are refused, naming the parameter', async () => {
    for (const value of ['five', '5.5', 'true', '5,0']) {
      const res = await t.get(`/apikey?perPage=${value}`);
      expectErrorBody(res, 400, '/apikey');
      expect(errorFields(res)).toEqual(['perPage']);
    }
  });

  it('still requires a required parameter sent empty', async () => {
    for (const query of ['?id=', '?id=%20']) {
      const res = await t.post(`/storagezone/resetReadOnlyPassword${query}`);
      expectErrorBody(res, 400);
      expect(errorFields(res)).toEqual(['id']);
    }
  });
});
