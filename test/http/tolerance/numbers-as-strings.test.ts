/**
 * JSON numbers sent as strings are read as numbers in bodies, as the platform's .NET serializers
 * read them; only the spellings both of its serializers read are taken, and every other string in
 * a numeric field is a 400 naming it, with nothing stored.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
let zoneId: number;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
  const res = await t.post('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com', OptimizerImageQuality: '70' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  zoneId = res.body.Id;
});

const zone = async () => (await t.get(`/pullzone/${zoneId}`)).body;

async function expectRefused(body: Record<string, unknown>, field: string): Promise<void> {
  const before = await zone();
  const res = await t.post(`/pullzone/${zoneId}`, body);
  expectErrorBody(res, 400, `/pullzone/${zoneId}`);
  expect({ body, fields: errorFields(res) }).toEqual({ body, fields: [field] });
  expect(await zone()).toEqual(before);
}

describe('numbers sent as strings', () => {
  it('creates with the number the string holds, stored and answered as a number', async () => {
    expect((await zone()).OptimizerImageQuality).toBe(70);
  });

  it.each([
    ['80', 80],
    ['+81', 81],
    ['082', 82],
    ['-0', 0],
  ])('reads %j into an integer field as %i', async (sent, read) => {
    const field = sent === '-0' ? 'CacheControlMaxAgeOverride' : 'OptimizerImageQuality';
    expect((await t.post(`/pullzone/${zoneId}`, { [field]: sent })).status).toBe(200);
    expect(Object.is((await zone())[field], read)).toBe(true);
  });

  it.each([
    ['1.5', 1.5],
    ['1e2', 100],
    ['-2.5E-1', -0.25],
    ['+3', 3],
  ])('reads %j into a floating-point field as %d', async (sent, read) => {
    expect((await t.post(`/pullzone/${zoneId}`, { LimitRatePerSecond: sent })).status).toBe(200);
    expect((await zone()).LimitRatePerSecond).toBe(read);
  });

  it.each(['70.5', '70.0', '1e2', ' 70', '70 ', '0x10', '', '7 0', '1,5', 'seventy', 'NaN', 'Infinity', '-Infinity', '٧٠', '70abc'])(
    'refuses %j for an integer field, naming it and storing nothing',
    async (sent) => {
      await expectRefused({ OptimizerImageQuality: sent }, 'OptimizerImageQuality');
    },
  );

  it.each(['NaN', 'Infinity', '-Infinity', '1e400', '.5', '5.', '', ' 1', '0x1', 'one'])('refuses %j for a floating-point field', async (sent) => {
    await expectRefused({ LimitRatePerSecond: sent }, 'LimitRatePerSecond');
  });

  it('checks the bounds of the number read', async () => {
    await expectRefused({ OptimizerImageQuality: '1000' }, 'OptimizerImageQuality');
    await expectRefused({ CacheControlMaxAgeOverride: '9007199254740993' }, 'CacheControlMaxAgeOverride');
    await expectRefused({ CacheControlMaxAgeOverride: '99999999999999999999999' }, 'CacheControlMaxAgeOverride');
  });

  it('reads no other type from a string: booleans stay JSON booleans', async () => {
    await expectRefused({ EnableLogging: 'true' }, 'EnableLogging');
    await expectRefused({ EnableLogging: '1' }, 'EnableLogging');
  });

  it('reads enums from JSON integers only, neither names nor digits in a string', async () => {
    const dns = (await t.post('/dnszone', { Domain: 'example.com' })).body;
    for (const Type of ['A', '0', 'a']) {
      const res = await t.put(`/dnszone/${dns.Id}/records`, { Type, Name: 'www', Value: '192.0.2.1' });
      expectErrorBody(res, 400);
      expect(errorFields(res)).toEqual(['Type']);
    }
    expect((await t.get(`/dnszone/${dns.Id}`)).body.Records).toEqual([]);
    const res = await t.put(`/dnszone/${dns.Id}/records`, { Type: 0, Name: 'www', Value: '192.0.2.1', Ttl: '300' });
    expect(res.status).toBe(201);
    expect(res.body.Ttl).toBe(300);
  });

  it('reads numbers deep inside container bodies too', async () => {
    const app = (
      await t.post('/mc/apps', {
        name: 'shop',
        runtimeType: 'shared',
        autoScaling: { min: '1', max: '2' },
        regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
      })
    ).body;
    expect((await t.get(`/mc/apps/${app.id}/autoscaling`)).body).toEqual({ min: 1, max: 2 });
    const template = {
      name: 'web',
      imageName: 'nginx',
      imageNamespace: 'library',
      imageTag: '1.25',
      imageRegistryId: '1',
      endpoints: [{ displayName: 'public', cdn: { isSslEnabled: true, portMappings: [{ containerPort: '8080', exposedPort: '80', protocols: ['tcp'] }] } }],
    };
    const added = await t.post(`/mc/apps/${app.id}/containers`, template);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.endpoints[0].portMappings[0]).toMatchObject({ containerPort: 8080, exposedPort: 80 });

    const bad = await t.put(`/mc/apps/${app.id}/autoscaling`, { min: '1.0', max: '2' });
    expect(bad.status).toBe(400);
    expect(errorFields(bad)).toEqual(['min']);
    expect((await t.get(`/mc/apps/${app.id}/autoscaling`)).body).toEqual({ min: 1, max: 2 });
  });
});
