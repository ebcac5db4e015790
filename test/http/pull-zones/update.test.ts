import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PullZone } from '../../../src/schemas/pull-zone.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { CDN_DOMAIN, createZone, expectShape, readOnlyKey, readZone } from './support.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp({ cdnDomain: CDN_DOMAIN });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const update = (id: number, body: Record<string, unknown>, key?: string | null) => t.post(`/pullzone/${id}`, body, key);

describe('POST /pullzone/{id}', () => {
  it('changes only the fields sent and answers the whole zone', async () => {
    const zone = await createZone(t);
    const res = await update(zone.Id, {
      OriginUrl: 'https://new-origin.example.com',
      OptimizerImageQuality: 60,
      BlockedCountries: ['DE', 'FR'],
      EnableLogging: false,
      LogFormat: 1,
      CacheControlMaxAgeOverride: 3600,
    });
    expect(res.status).toBe(200);
    expectShape(PullZone, res.body);
    expect(Object.keys(res.body)).toEqual(Object.keys(PullZone.properties));
    const expected = {
      ...zone,
      OriginUrl: 'https://new-origin.example.com',
      OriginLinkValue: 'https://new-origin.example.com',
      OptimizerImageQuality: 60,
      BlockedCountries: ['DE', 'FR'],
      EnableLogging: false,
      LogFormat: 1,
      CacheControlMaxAgeOverride: 3600,
    };
    expect(res.body).toEqual(expected);
    expect(await readZone(t, zone.Id)).toEqual(expected);
    await t.restart();
    expect(await readZone(t, zone.Id)).toEqual(expected);
  });

  it('keeps a value sent as null, binds names case-insensitively and maps the older browser-cache name', async () => {
    const zone = await createZone(t, 'my-zone', { OptimizerImageQuality: 42 });
    const res = await update(zone.Id, { OptimizerImageQuality: null, originurl: null, enablewebpvary: true, CacheControlBrowserMaxAgeOverride: 120 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      OptimizerImageQuality: 42,
      OriginUrl: 'https://origin.example.com',
      EnableWebPVary: true,
      CacheControlPublicMaxAgeOverride: 120,
    });
    expect((await update(zone.Id, {})).body).toEqual(res.body);
  });

  it('ignores read-only fields: identity, usage, billing, hostnames and edge rules are not settable', async () => {
    const zone = await createZone(t);
    const res = await update(zone.Id, {
      Id: 999,
      Name: 'renamed',
      CacheVersion: 7,
      MonthlyBandwidthUsed: 5,
      MonthlyCharges: 3,
      ZoneSecurityKey: 'mine',
      Hostnames: [],
      EdgeRules: [],
      UserId: 'someone',
      Suspended: true,
      Enabled: false,
      VideoLibraryId: 4,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(zone);
  });

  it('checks every bound, enum and type, naming the field as sent', async () => {
    const zone = await createZone(t);
    for (const [field, bad] of [
      ['OptimizerImageQuality', 0],
      ['OptimizerImageQuality', 101],
      ['OptimizerMobileImageQuality', 101],
      ['OptimizerDesktopMaxWidth', 5001],
      ['OptimizerMobileMaxWidth', -1],
      ['PreloadingScreenDelay', 10001],
      ['OriginShieldMaxConcurrentRequests', 0],
      ['Type', 2],
      ['LogFormat', 2],
      ['ShieldDDosProtectionType', 3],
      ['OriginType', 7],
      ['EdgeScriptExecutionPhase', 2],
      ['EnableLogging', 'yes'],
      ['BlockedCountries', 'DE'],
      ['BurstSize', 2147483648],
      ['PreloadingScreenShowOnFirstVisit', null],
    ] as const) {
      const res = await update(zone.Id, { [field]: bad });
      expectErrorBody(res, 400, `/pullzone/${zone.Id}`);
      expect(errorFields(res), `${field}=${String(bad)}`).toEqual([field]);
    }
    for (const [field, ok] of [
      ['OptimizerImageQuality', 1],
      ['OptimizerImageQuality', 100],
      ['OptimizerDesktopMaxWidth', 0],
      ['OptimizerMobileMaxWidth', 5000],
    ] as const) {
      expect((await update(zone.Id, { [field]: ok })).body[field]).toBe(ok);
    }
    expect(await readZone(t, zone.Id)).toMatchObject({ OptimizerImageQuality: 100, Type: 0, EnableLogging: true });
  });

  it("checks the origin URL and that a storage zone origin is the account's own", async () => {
    const zone = await createZone(t);
    expect(errorFields(await update(zone.Id, { OriginUrl: 'ftp://files.example.com' }))).toEqual(['OriginUrl']);
    expect(errorFields(await update(zone.Id, { OriginUrl: '' }))).toEqual(['OriginUrl']);
    expect(errorFields(await update(zone.Id, { StorageZoneId: 999999 }))).toEqual(['StorageZoneId']);
    const other = await t.newAccount();
    const theirs = (await t.post('/storagezone', { Name: 'their-files', Region: 'DE' }, other.key)).body;
    expect(errorFields(await update(zone.Id, { StorageZoneId: theirs.Id }))).toEqual(['StorageZoneId']);
    const mine = (await t.post('/storagezone', { Name: 'my-files', Region: 'DE' })).body;
    expect((await update(zone.Id, { StorageZoneId: mine.Id, OriginType: 2 })).body).toMatchObject({ StorageZoneId: mine.Id, OriginType: 2 });
    expect((await t.get(`/storagezone/${mine.Id}`)).body.PullZones.map((z: { Id: number }) => z.Id)).toEqual([zone.Id]);
  });

  it('re-enables a zone stopped at its bandwidth limit when the limit is lifted', async () => {
    const zone = await createZone(t, 'my-zone', { MonthlyBandwidthLimit: 1000 });
    expect((await t.app.services.operator.addUsage(zone.Id, 1000)).Enabled).toBe(false);
    expect((await update(zone.Id, { MonthlyBandwidthLimit: 5000 })).body.Enabled).toBe(true);
    expect((await update(zone.Id, { MonthlyBandwidthLimit: 500 })).body.Enabled).toBe(false);
    expect((await update(zone.Id, { MonthlyBandwidthLimit: 0 })).body).toMatchObject({ Enabled: true, MonthlyBandwidthLimit: 0 });
  });

  it('answers 404 for unknown and foreign zones, 400 for a bad id', async () => {
    const zone = await createZone(t);
    expectErrorBody(await update(999999, { EnableLogging: false }), 404, '/pullzone/999999');
    const other = await t.newAccount();
    expectErrorBody(await update(zone.Id, { EnableLogging: false }, other.key), 404);
    expect(errorFields(await update(0, {}))).toEqual(['id']);
    expect((await readZone(t, zone.Id)).EnableLogging).toBe(true);
  });

  it('needs a valid key that may write', async () => {
    const zone = await createZone(t);
    expectErrorBody(await update(zone.Id, { EnableLogging: false }, null), 401);
    expectErrorBody(await update(zone.Id, { EnableLogging: false }, 'wrong'), 401);
    expectErrorBody(await update(zone.Id, { EnableLogging: false }, await readOnlyKey(t)), 403);
    expect((await readZone(t, zone.Id)).EnableLogging).toBe(true);
  });
});
