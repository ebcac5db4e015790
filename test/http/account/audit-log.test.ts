/**
 * `GET /user/audit/{date}`: every write made through the API, by which key, on which resource,
 * a day at a time; never a credential; nothing for reads, refused writes or replays.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userIdOf } from '../../../src/domain/principal.js';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { base64, CERTIFICATE_KEY_PEM, CERTIFICATE_PEM } from '../pull-zones/fixtures.js';

let t: TestContext;
let keyId: number;
beforeEach(async () => {
  t = await createTestApp();
  keyId = (await t.get('/apikey')).body.Items[0].Id;
});
afterEach(async () => {
  await t.close();
});

const DAY = 86_400_000;
const log = async (query = '', day = '2026-01-01', key?: string) => {
  const res = await t.get(`/user/audit/${day}${query}`, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('what the audit log records', () => {
  it('an entry for each of many concurrent writes, each committed before its answer (they share commits)', async () => {
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => t.post('/storagezone', { Name: `audit-many-${i}`, Region: 'DE' })));
    expect(created.map((r) => r.status)).toEqual(Array(40).fill(201));
    const page = await log('?Order=Ascending&Limit=100');
    const ids = (page.Logs as { ResourceId: string; Action: string }[]).filter((e) => e.Action === 'createStorageZone').map((e) => e.ResourceId);
    expect(ids.sort()).toEqual(created.map((r) => String(r.body.Id)).sort());
  });

  it('each successful write, with the operation, the resource, the key that made it and the fields it sent', async () => {
    const zone = (await t.post('/pullzone', { name: 'site', originurl: 'https://origin.example.com' })).body;
    t.clock.advance(1000);
    await t.post(`/pullzone/${zone.Id}`, { CacheControlMaxAgeOverride: 60 });
    t.clock.advance(1000);
    await t.del(`/pullzone/${zone.Id}`);
    const page = await log('?Order=Ascending');
    expect(page).toEqual({
      Logs: [
        {
          Timestamp: '2026-01-01T00:00:00.000Z',
          Product: 'CDN',
          ResourceType: 'PullZone',
          ResourceId: String(zone.Id),
          ResourceOwner: userIdOf(t.accountId),
          Action: 'createPullZone',
          ActorId: String(keyId),
          ActorType: 'ApiKey',
          Diff: JSON.stringify({ Fields: ['Name', 'OriginUrl'] }),
        },
        expect.objectContaining({
          Timestamp: '2026-01-01T00:00:01.000Z',
          Action: 'updatePullZone',
          ResourceId: String(zone.Id),
          Diff: '{"Fields":["CacheControlMaxAgeOverride"]}',
        }),
        expect.objectContaining({ Timestamp: '2026-01-01T00:00:02.000Z', Action: 'deletePullZone', ResourceId: String(zone.Id), Diff: null }),
      ],
      HasMoreData: false,
      ContinuationToken: null,
      StartToken: expect.any(String),
    });
  });

  it('names the product and resource of every kind of write, containers included', async () => {
    await t.post('/storagezone', { Name: 'files', Region: 'DE' });
    const dns = (await t.post('/dnszone', { Domain: 'example.com' })).body;
    await t.put(`/dnszone/${dns.Id}/records`, { Type: 0, Name: 'www', Value: '192.0.2.1' });
    await t.post('/videolibrary', { Name: 'Lectures' });
    const created = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body;
    const app = (
      await t.post('/mc/apps', {
        name: 'shop',
        runtimeType: 'shared',
        autoScaling: { min: 1, max: 1 },
        regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
      })
    ).body;
    const logs = (await log('?Order=Ascending')).Logs.map((l: Record<string, string>) => [l.Product, l.ResourceType, l.ResourceId, l.Action]);
    expect(logs).toEqual([
      ['Storage', 'StorageZone', '1', 'createStorageZone'],
      ['DNS', 'DnsZone', String(dns.Id), 'createDnsZone'],
      ['DNS', 'DnsZone', String(dns.Id), 'addDnsRecord'],
      ['Stream', 'VideoLibrary', '1', 'createVideoLibrary'],
      ['Account', 'ApiKey', String(created.Id), 'createApiKey'],
      ['Containers', 'ContainerApp', app.id, expect.any(String)],
    ]);
  });

  it('never keeps a credential: no key, password or certificate key a request sent or got back', async () => {
    const zone = (await t.post('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com' })).body;
    await t.post(`/pullzone/${zone.Id}/addHostname`, { Hostname: 'cdn.example.com' });
    await t.post(`/pullzone/${zone.Id}/addCertificate`, {
      Hostname: 'cdn.example.com',
      Certificate: base64(CERTIFICATE_PEM),
      CertificateKey: base64(CERTIFICATE_KEY_PEM),
    });
    const storage = (await t.post('/storagezone', { Name: 'files', Region: 'DE' })).body;
    const issued = (await t.post('/apikey', {})).body;
    const entries = await t.store.audit.list(t.accountId, { day: '2026-01-01', descending: false, limit: 100 });
    const text = JSON.stringify(entries);
    for (const secret of [t.key, issued.Key, storage.Password, storage.ReadOnlyPassword, zone.ZoneSecurityKey, base64(CERTIFICATE_KEY_PEM), 'PRIVATE KEY']) {
      expect(text).not.toContain(secret);
    }
    const certificate = entries.find((e) => e.action === 'addPullZoneCertificate');
    expect(JSON.parse(certificate?.diff ?? 'null')).toEqual({ Fields: ['Hostname', 'Certificate', 'CertificateKey'] });
  });

  it('records nothing for reads, refused writes and replayed ones', async () => {
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    const before = (await log()).Logs.length;
    await t.get('/pullzone');
    await t.post('/pullzone/checkavailability', { Name: 'free' });
    expect((await t.post('/pullzone', { Name: 'site' }, readOnly)).status).toBe(403);
    expect((await t.post('/storagezone', { Name: 'x', Region: 'nowhere' })).status).toBe(400);
    expect((await t.del('/pullzone/98765')).status).toBe(404);
    expect((await log()).Logs).toHaveLength(before);
    const once = { 'content-type': 'application/json', 'idempotency-key': 'create-site-1' };
    const body = JSON.stringify({ Name: 'site', OriginUrl: 'https://origin.example.com' });
    expect((await t.request('POST', '/pullzone', body, undefined, once)).status).toBe(201);
    const replay = await t.request('POST', '/pullzone', body, undefined, once);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await log()).Logs).toHaveLength(before + 1);
  });
});

describe('reading the audit log', () => {
  let made = 0;
  async function writes(n: number, key?: string) {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await t.post('/dnszone', { Domain: `d${++made}.example` }, key);
      expect(res.status).toBe(201);
      ids.push(res.body.Id);
      t.clock.advance(1000);
    }
    return ids;
  }

  it('pages newest first by default, with continuation tokens', async () => {
    const ids = (await writes(5)).map(String);
    const first = await log('?Limit=2');
    expect(first.Logs.map((l: { ResourceId: string }) => l.ResourceId)).toEqual([ids[4], ids[3]]);
    expect(first.HasMoreData).toBe(true);
    const second = await log(`?Limit=2&ContinuationToken=${first.ContinuationToken}`);
    expect(second.Logs.map((l: { ResourceId: string }) => l.ResourceId)).toEqual([ids[2], ids[1]]);
    const third = await log(`?Limit=2&ContinuationToken=${second.ContinuationToken}`);
    expect(third).toMatchObject({ HasMoreData: false, ContinuationToken: null });
    expect(third.Logs.map((l: { ResourceId: string }) => l.ResourceId)).toEqual([ids[0]]);
    // A page's StartToken reads it again.
    expect(await log(`?Limit=2&ContinuationToken=${second.StartToken}`)).toEqual(second);
    const ascending = await log('?Order=Ascending&Limit=3');
    expect(ascending.Logs.map((l: { ResourceId: string }) => l.ResourceId)).toEqual(ids.slice(0, 3));
  });

  it('filters by product, resource type, resource and key, each taking several values', async () => {
    const other = (await t.post('/apikey', {})).body;
    const [zone] = await writes(1);
    await t.post('/storagezone', { Name: 'files', Region: 'DE' }, other.Key);
    await t.post('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com' }, other.Key);
    const actions = async (query: string) => (await log(`?Order=Ascending&${query}`)).Logs.map((l: { Action: string }) => l.Action);
    expect(await actions('Product=DNS')).toEqual(['createDnsZone']);
    expect(await actions('Product=DNS&Product=CDN')).toEqual(['createDnsZone', 'createPullZone']);
    expect(await actions('ResourceType=StorageZone')).toEqual(['createStorageZone']);
    expect(await actions(`ResourceId=${zone}&ResourceType=DnsZone`)).toEqual(['createDnsZone']);
    expect(await actions(`ActorId=${other.Id}`)).toEqual(['createStorageZone', 'createPullZone']);
    expect(await actions(`ActorId=${keyId}&ActorId=${other.Id}&Product=Account`)).toEqual(['createApiKey']);
  });

  it('reads one UTC day, named by a date or a date-time', async () => {
    await writes(1);
    t.clock.advance(DAY);
    await writes(2);
    expect((await log('', '2026-01-01')).Logs).toHaveLength(1);
    expect((await log('', '2026-01-02T23:59:59Z')).Logs).toHaveLength(2);
    expect((await log('', '2026-01-02T01:00:00%2B02:00')).Logs).toHaveLength(1);
    expect((await log('', '2025-12-31')).Logs).toEqual([]);
  });

  it(`keeps a day for 90 days, then forgets it`, async () => {
    await writes(1);
    t.clock.advance(90 * DAY);
    await writes(1);
    expect((await log('', '2026-01-01')).Logs).toHaveLength(1);
    t.clock.advance(DAY);
    await writes(1);
    expect((await log('', '2026-01-01')).Logs).toEqual([]);
  });

  it('shows an account its own writes only', async () => {
    await writes(2);
    const other = await t.newAccount();
    await writes(1, other.key);
    expect((await log('', '2026-01-01', other.key)).Logs.map((l: { ResourceOwner: string }) => l.ResourceOwner)).toEqual([userIdOf(other.accountId)]);
    expect((await log()).Logs).toHaveLength(2);
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expect((await log('', '2026-01-01', readOnly)).Logs).toHaveLength(3);
  });

  it('answers 400 naming what is wrong: the date, the order, the limit, the token', async () => {
    await writes(3);
    const page = await log('?Limit=1');
    const cases: [string, string][] = [
      ['/user/audit/yesterday', 'date'],
      ['/user/audit/2026-02-30', 'date'],
      ['/user/audit/2026-01-01?Order=Sideways', 'Order'],
      ['/user/audit/2026-01-01?Limit=0', 'Limit'],
      ['/user/audit/2026-01-01?Limit=10001', 'Limit'],
      ['/user/audit/2026-01-01?ContinuationToken=garbage', 'ContinuationToken'],
      [`/user/audit/2026-01-02?ContinuationToken=${page.ContinuationToken}`, 'ContinuationToken'],
      [`/user/audit/2026-01-01?Order=Ascending&ContinuationToken=${page.ContinuationToken}`, 'ContinuationToken'],
    ];
    for (const [url, field] of cases) {
      const res = await t.get(url);
      expectErrorBody(res, 400, url.split('?')[0]);
      expect(errorFields(res), url).toEqual([field]);
    }
    expectErrorBody(await t.get('/user/audit/2026-01-01', null), 401);
  });
});
