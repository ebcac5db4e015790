import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PullZone } from '../../../src/schemas/pull-zone.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
const validZone = ajv.compile(PullZone);

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp({ cdnDomain: 'cdn.example.test' });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const create = (body: Record<string, unknown>) => t.post('/pullzone', body);
const zone = (extra: Record<string, unknown> = {}) => ({ Name: 'my-zone', OriginUrl: 'https://origin.example.com', ...extra });

describe('POST /pullzone', () => {
  it('answers 201 with the full pull zone and a system hostname', async () => {
    const res = await create(zone());
    expect(res.status).toBe(201);
    expect(validZone(res.body), JSON.stringify(validZone.errors)).toBe(true);
    expect(Object.keys(res.body)).toEqual(Object.keys(PullZone.properties));
    expect(res.body).toMatchObject({
      Id: expect.any(Number),
      Name: 'my-zone',
      OriginUrl: 'https://origin.example.com',
      Enabled: true,
      Suspended: false,
      Type: 0,
      StorageZoneId: 0,
      CacheVersion: 0,
      UserId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(res.body.Hostnames).toEqual([
      expect.objectContaining({ Value: 'my-zone.cdn.example.test', IsSystemHostname: true, HasCertificate: true, Certificate: '', CertificateKey: '' }),
    ]);
    expect(typeof res.body.ZoneSecurityKey).toBe('string');
  });

  it('applies settings sent on create and binds names case-insensitively', async () => {
    const res = await create({ name: 'cased', originurl: 'http://o.example', optimizerImageQuality: 42, Type: 1, BlockedCountries: ['DE'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ Name: 'cased', OriginUrl: 'http://o.example', OptimizerImageQuality: 42, Type: 1, BlockedCountries: ['DE'] });
  });

  it.each([
    ['OptimizerImageQuality', 0, 1, 100, 101],
    ['OptimizerMobileImageQuality', 0, 1, 100, 101],
    ['OptimizerDesktopMaxWidth', -1, 0, 5000, 5001],
    ['OptimizerMobileMaxWidth', -1, 0, 5000, 5001],
  ])('enforces the part 8 bounds of %s', async (field, below, min, max, above) => {
    for (const [i, value] of [below, above].entries()) {
      const res = await create(zone({ Name: `bad-${i}`, [field]: value }));
      expectErrorBody(res, 400, '/pullzone');
      expect(errorFields(res)).toEqual([field]);
    }
    for (const [i, value] of [min, max].entries()) {
      const res = await create(zone({ Name: `ok-${i}`, [field]: value }));
      expect(res.status).toBe(201);
      expect(res.body[field]).toBe(value);
    }
  });

  it('checks enums, types and the naming rule', async () => {
    expect(errorFields(await create(zone({ Type: 2 })))).toEqual(['Type']);
    expect(errorFields(await create(zone({ LogFormat: 5 })))).toEqual(['LogFormat']);
    expect(errorFields(await create(zone({ EnableLogging: 'yes' })))).toEqual(['EnableLogging']);
    expect(errorFields(await create(zone({ Name: '' })))).toEqual(['Name']);
    expect(errorFields(await create(zone({ Name: 'under_score' })))).toEqual(['Name']);
    expect(errorFields(await create(zone({ Name: 'a'.repeat(64) })))).toEqual(['Name']);
    expect((await create(zone({ Name: 'a'.repeat(63) }))).status).toBe(201);
    expect(errorFields(await create({ Name: 'no-origin' }))).toEqual(['OriginUrl']);
    expect(errorFields(await create(zone({ Name: 'bad-origin', OriginUrl: 'ftp://x' })))).toEqual(['OriginUrl']);
    expect(errorFields(await create({ OriginUrl: 'https://o.example' }))).toEqual(['Name']);
  });

  it('keeps names unique across accounts, case-insensitively', async () => {
    expect((await create(zone())).status).toBe(201);
    const again = await create(zone({ Name: 'MY-ZONE' }));
    expectErrorBody(again, 400);
    expect(errorFields(again)).toEqual(['Name']);
    expect(again.body.Message).toMatch(/taken/);
    const other = await t.newAccount();
    expect((await t.post('/pullzone', zone(), other.key)).status).toBe(400);
  });

  it('links a storage zone of the same account only', async () => {
    const sz = (await t.post('/storagezone', { Name: 'files', Region: 'DE' })).body;
    const res = await create({ Name: 'from-storage', StorageZoneId: sz.Id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ StorageZoneId: sz.Id, OriginType: 2 });
    const other = await t.newAccount();
    const foreign = await t.post('/pullzone', { Name: 'steal', StorageZoneId: sz.Id }, other.key);
    expect(errorFields(foreign)).toEqual(['StorageZoneId']);
  });

  it('requires a writing key', async () => {
    expectErrorBody(await t.post('/pullzone', zone(), null), 401);
    expectErrorBody(await t.post('/pullzone', zone(), 'wrong'), 401);
    const ro = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expectErrorBody(await t.post('/pullzone', zone(), ro), 403);
    expect((await t.get('/pullzone/1')).status).toBe(404);
  });
});

describe('GET /pullzone/{id}', () => {
  it('returns every field; certificates only with includeCertificate=true', async () => {
    const created = (await create(zone())).body;
    // Give the system hostname a certificate, as a later upload would, through the domain's repository.
    const repo = t.app.services.pullZones.zones;
    const stored = await repo.get(t.store, t.accountId, created.Id);
    const [system] = stored.doc.Hostnames!;
    await repo.update(t.store, t.accountId, stored, { ...stored.doc, Hostnames: [{ ...system!, Certificate: 'CERT', CertificateKey: 'KEY' }] });

    const plain = await t.get(`/pullzone/${created.Id}`);
    expect(plain.status).toBe(200);
    expect(validZone(plain.body)).toBe(true);
    expect(plain.body.Hostnames[0]).toMatchObject({ Certificate: '', CertificateKey: '' });
    const withCert = await t.get(`/pullzone/${created.Id}?includeCertificate=true`);
    expect(withCert.body.Hostnames[0]).toMatchObject({ Certificate: 'CERT', CertificateKey: 'KEY' });
    expect((await t.get(`/pullzone/${created.Id}?includeCertificate=false`)).body.Hostnames[0].Certificate).toBe('');
    expect(errorFields(await t.get(`/pullzone/${created.Id}?includeCertificate=maybe`))).toEqual(['includeCertificate']);
  });

  it('answers 404 for unknown and foreign ids, 400 for a bad id, 401 without a key', async () => {
    const created = (await create(zone())).body;
    expectErrorBody(await t.get('/pullzone/999999'), 404, '/pullzone/999999');
    const other = await t.newAccount();
    expectErrorBody(await t.get(`/pullzone/${created.Id}`, other.key), 404);
    expect(errorFields(await t.get('/pullzone/abc'))).toEqual(['id']);
    expectErrorBody(await t.get(`/pullzone/${created.Id}`, null), 401);
  });

  it('reads back the same zone after a restart', async () => {
    const created = (await create(zone({ OptimizerImageQuality: 77 }))).body;
    await t.restart();
    const res = await t.get(`/pullzone/${created.Id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });
});
