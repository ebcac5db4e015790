/** The platform's reference data: edge regions with their traffic prices, countries, storage regions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bandwidthPricePerGb, REGIONS } from '../../../src/domain/reference-data/regions.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ storageDomain: 'files.example.test' });
});
afterAll(async () => {
  await t.close();
});

describe('GET /region', () => {
  it('lists every edge region with the price a GB served there costs', async () => {
    const res = await t.get('/region');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(REGIONS.length);
    expect(res.body[0]).toEqual({
      Id: 1,
      Name: 'Frankfurt',
      PricePerGigabyte: 0.01,
      RegionCode: 'DE',
      ContinentCode: 'EU',
      CountryCode: 'DE',
      Latitude: 50.11,
      Longitude: 8.68,
      AllowLatencyRouting: true,
    });
    const price = (code: string) => res.body.find((r: { RegionCode: string }) => r.RegionCode === code).PricePerGigabyte;
    expect([price('NY'), price('SG'), price('SYD'), price('BR'), price('JH')]).toEqual([0.01, 0.03, 0.03, 0.045, 0.06]);
    expect(new Set(res.body.map((r: { Id: number }) => r.Id)).size).toBe(REGIONS.length);
  });

  it('prices the same bytes the edge and billing price, by region code in any case', () => {
    expect(bandwidthPricePerGb('de')).toBe(0.01);
    expect(bandwidthPricePerGb('SYD')).toBe(0.03);
    // An unknown region costs what the cheapest group costs: a charge is never overstated.
    expect(bandwidthPricePerGb('XX')).toBe(0.01);
  });
});

describe('GET /country', () => {
  it('lists every ISO country by name, with EU membership, VAT and the edge regions it hosts', async () => {
    const res = await t.get('/country');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(249);
    const country = (code: string) => res.body.find((c: { IsoCode: string }) => c.IsoCode === code);
    expect(country('DE')).toEqual({ Name: 'Germany', IsoCode: 'DE', IsEU: true, TaxRate: 19, TaxPrefix: 'DE', FlagUrl: null, PopList: ['DE'] });
    expect(country('GR')).toMatchObject({ IsEU: true, TaxPrefix: 'EL' });
    expect(country('US')).toMatchObject({ IsEU: false, TaxRate: 0, TaxPrefix: null, PopList: ['NY', 'LA', 'CHI', 'DA', 'MI', 'SEA'] });
    expect(country('IS')).toMatchObject({ IsEU: false, PopList: [] });
    expect(res.body.filter((c: { IsEU: boolean }) => c.IsEU)).toHaveLength(27);
    const names = res.body.map((c: { Name: string }) => c.Name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'en')));
  });
});

describe('GET /storagezone/regions', () => {
  it('lists the storage regions with the file API address their zones show', async () => {
    const res = await t.get('/storagezone/regions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { Id: 'DE', Name: 'Frankfurt', Url: 'https://files.example.test/' },
      { Id: 'NY', Name: 'New York', Url: 'https://ny.files.example.test/' },
      { Id: 'LA', Name: 'Los Angeles', Url: 'https://la.files.example.test/' },
      { Id: 'SG', Name: 'Singapore', Url: 'https://sg.files.example.test/' },
      { Id: 'SYD', Name: 'Sydney', Url: 'https://syd.files.example.test/' },
    ]);
    for (const region of ['DE', 'NY', 'SG']) {
      const zone = (await t.post('/storagezone', { Name: `files-${region.toLowerCase()}`, Region: region })).body;
      expect(res.body.find((r: { Id: string }) => r.Id === region).Url).toBe(`https://${zone.StorageHostname}/`);
    }
  });

  it('is read with any key, read-only included, and needs one', async () => {
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    for (const url of ['/region', '/country', '/storagezone/regions']) {
      expect((await t.get(url, readOnly)).status).toBe(200);
      expect((await t.get(url, null)).status).toBe(401);
    }
  });
});
