/** `GET /v1/pricing/{source}/{resourceId}`: what a resource pays for a billing source, and what units would cost. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { pullZone, setZonePricing } from './support.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const estimate = async (url: string, key?: string) => {
  const res = await t.get(url, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('pull zone traffic', () => {
  it('answers the list price of the region group, and the cost of units when asked', async () => {
    const zone = await pullZone(t, 'site');
    expect(await estimate(`/v1/pricing/1101/${zone.Id}`)).toEqual({
      PricingType: 0,
      PricePerUnit: 0.01,
      UnitDescription: 'GB',
      EstimatedCost: null,
      Breakdown: null,
    });
    expect(await estimate(`/v1/pricing/1103/${zone.Id}?units=1000`)).toEqual({
      PricingType: 0,
      PricePerUnit: 0.03,
      UnitDescription: 'GB',
      EstimatedCost: 30,
      Breakdown: [{ Description: 'CDN traffic, Asia and Oceania', Units: 1000, PricePerUnit: 0.03, Cost: 30 }],
    });
    expect((await estimate(`/v1/pricing/1105/${zone.Id}`)).PricePerUnit).toBe(0.045);
    expect((await estimate(`/v1/pricing/1300/${zone.Id}`)).PricePerUnit).toBe(0.005);
  });

  it("uses the zone's own price and takes its discount off", async () => {
    const zone = await pullZone(t, 'site');
    await setZonePricing(t, t.accountId, zone.Id, { PriceOverride: 0.000000000004, AsiaOceaniaDiscount: 25 });
    expect(await estimate(`/v1/pricing/1103/${zone.Id}?units=100`)).toEqual({
      PricingType: 2,
      PricePerUnit: 0.004,
      UnitDescription: 'GB',
      EstimatedCost: 0.3,
      Breakdown: [
        { Description: 'CDN traffic, Asia and Oceania', Units: 100, PricePerUnit: 0.004, Cost: 0.4 },
        { Description: 'Discount (25%)', Units: 100, PricePerUnit: -0.001, Cost: -0.1 },
      ],
    });
  });
});

describe('storage zones and video libraries', () => {
  it('price storage per GB-month by tier, with the zone price per TB when it has one', async () => {
    const zone = (await t.post('/storagezone', { Name: 'files', Region: 'DE' })).body;
    expect(await estimate(`/v1/pricing/2100/${zone.Id}?units=50`)).toMatchObject({
      PricingType: 0,
      PricePerUnit: 0.01,
      UnitDescription: 'GB-month per region',
      EstimatedCost: 0.5,
    });
    expect((await estimate(`/v1/pricing/2200/${zone.Id}`)).PricePerUnit).toBe(0.08);
    expect((await estimate(`/v1/pricing/1501/${zone.Id}`)).PricePerUnit).toBe(0.01);
  });

  it("price a library's delivery, storage and features, overrides included", async () => {
    const library = (await t.post('/videolibrary', { Name: 'Lectures' })).body;
    expect((await estimate(`/v1/pricing/1201/${library.Id}`)).PricePerUnit).toBe(0.01);
    expect((await estimate(`/v1/pricing/2300/${library.Id}`)).PricePerUnit).toBe(0.01);
    expect(await estimate(`/v1/pricing/4100/${library.Id}?units=60`)).toMatchObject({
      PricingType: 0,
      PricePerUnit: 0.1,
      UnitDescription: 'minute',
      EstimatedCost: 6,
    });
    expect((await estimate(`/v1/pricing/4300/${library.Id}`)).PricePerUnit).toBe(99);
    const libraries = t.app.services.videoLibraries.libraries;
    await t.store.transaction(async (tx) => {
      const stored = await libraries.get(tx, t.accountId, library.Id);
      await libraries.update(tx, t.accountId, stored, { ...stored.doc, TranscribingPriceOverride: 0.05 });
    });
    expect(await estimate(`/v1/pricing/4100/${library.Id}?units=60`)).toMatchObject({ PricingType: 2, PricePerUnit: 0.05, EstimatedCost: 3 });
  });
});

describe('errors', () => {
  it('answers 400 naming the source or the units', async () => {
    const zone = await pullZone(t, 'site');
    const cases: [string, string][] = [
      [`/v1/pricing/9999/${zone.Id}`, 'source'],
      [`/v1/pricing/cdn/${zone.Id}`, 'source'],
      [`/v1/pricing/5200/${zone.Id}`, 'source'],
      [`/v1/pricing/1710/${zone.Id}`, 'source'],
      [`/v1/pricing/1101/${zone.Id}?units=-1`, 'units'],
      [`/v1/pricing/1101/${zone.Id}?units=lots`, 'units'],
      ['/v1/pricing/1101/0', 'resourceId'],
    ];
    for (const [url, field] of cases) {
      const res = await t.get(url);
      expectErrorBody(res, 400, url.split('?')[0]);
      expect(errorFields(res), url).toEqual([field]);
    }
  });

  it("answers 404 for an unknown resource, another account's, a deleted storage zone", async () => {
    const zone = await pullZone(t, 'site');
    const other = await t.newAccount();
    expectErrorBody(await t.get(`/v1/pricing/1101/${zone.Id}`, other.key), 404, `/v1/pricing/1101/${zone.Id}`);
    expectErrorBody(await t.get('/v1/pricing/1101/987654'), 404);
    expectErrorBody(await t.get('/v1/pricing/4100/987654'), 404);
    const storage = (await t.post('/storagezone', { Name: 'files', Region: 'DE' })).body;
    expect((await t.del(`/storagezone/${storage.Id}`)).status).toBe(204);
    expectErrorBody(await t.get(`/v1/pricing/2100/${storage.Id}`), 404);
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expect((await estimate(`/v1/pricing/1101/${zone.Id}`, readOnly)).PricePerUnit).toBe(0.01);
  });
});
