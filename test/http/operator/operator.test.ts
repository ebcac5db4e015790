import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { testStoreKind } from '../../helpers/store.js';

const TOKEN = 'operator-token-0123456789';
let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ adminToken: TOKEN });
});
afterEach(async () => {
  await t.close();
});

const op = (method: 'GET' | 'POST', url: string, body?: unknown, token: string | null = TOKEN) =>
  t.request(method, url, body, null, token === null ? {} : { authorization: `Bearer ${token}` });

const newZone = async (extra: Record<string, unknown> = {}) =>
  (await t.post('/pullzone', { Name: 'zone-1', OriginUrl: 'https://origin.example', ...extra })).body;

describe('operator credential', () => {
  it('answers 404 on every operator route when no token is configured', async () => {
    const bare = await createTestApp();
    try {
      for (const url of ['/_edgeplane/accounts', '/_edgeplane/pullzones/1/suspend']) {
        expectErrorBody(await bare.request('POST', url, {}, null, { authorization: `Bearer ${TOKEN}` }), 404);
      }
    } finally {
      await bare.close();
    }
  });

  it('answers 401 to a wrong or missing token, and to an account key', async () => {
    expectErrorBody(await op('GET', '/_edgeplane/accounts', undefined, 'wrong-token-0123456789'), 401);
    expectErrorBody(await op('GET', '/_edgeplane/accounts', undefined, null), 401);
    expectErrorBody(await t.request('GET', '/_edgeplane/accounts', undefined, t.key), 401);
    expectErrorBody(await t.request('GET', '/_edgeplane/accounts', undefined, null, { authorization: `Bearer ${t.key}` }), 401);
  });

  it('health needs no credential', async () => {
    const res = await t.get('/_edgeplane/health', null);
    expect(res.status).toBe(200);
    // `planes` was added by the planes issue; the rest is as before.
    expect(res.body).toEqual({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      store: testStoreKind(),
      planes: { api: 'ok', storage: 'off', edge: 'off', 'edge-tls': 'off', dns: 'off', s3: 'off', video: 'off', logging: 'off' },
      // Which container runtime runs the apps (test apps run the simulation).
      containers: { runtime: 'simulated', description: expect.stringContaining('simulated') },
    });
  });
});

describe('POST /_edgeplane/accounts', () => {
  it('creates an account whose key works and sees only its own resources', async () => {
    const res = await op('POST', '/_edgeplane/accounts', { Name: 'acme' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ Id: expect.any(Number), Name: 'acme', ApiKey: expect.any(String) });
    await newZone();
    const keys = await t.get('/apikey', res.body.ApiKey);
    expect(keys.status).toBe(200);
    expect(keys.body.Items).toEqual([{ Id: expect.any(Number), Key: res.body.ApiKey, Roles: ['FullAccess'] }]);
    expect((await t.get('/pullzone/1', res.body.ApiKey)).status).toBe(404);
    const list = await op('GET', '/_edgeplane/accounts');
    expect(list.body.map((a: { Name: string }) => a.Name)).toEqual(['test', 'acme']);
  });

  it('validates the name', async () => {
    expect(errorFields(await op('POST', '/_edgeplane/accounts', { Name: '' }))).toEqual(['Name']);
    expect(errorFields(await op('POST', '/_edgeplane/accounts', {}))).toEqual(['Name']);
  });
});

describe('pull zone Enabled transitions', () => {
  it('disables a zone when usage reaches its limit and enables it when the limit is lifted', async () => {
    const zone = await newZone({ MonthlyBandwidthLimit: 1000 });
    let res = await op('POST', `/_edgeplane/pullzones/${zone.Id}/usage`, { Bytes: 999 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ MonthlyBandwidthUsed: 999, Enabled: true });
    res = await op('POST', `/_edgeplane/pullzones/${zone.Id}/usage`, { Bytes: 1 });
    expect(res.body).toMatchObject({ MonthlyBandwidthUsed: 1000, Enabled: false });
    expect((await t.get(`/pullzone/${zone.Id}`)).body.Enabled).toBe(false);
  });

  it('disables every zone of an account out of funds, and enables them when funds return', async () => {
    const a = await newZone();
    const b = await newZone({ Name: 'zone-2' });
    let res = await op('POST', `/_edgeplane/accounts/${t.accountId}/balance`, { Balance: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Id: t.accountId, Balance: 0 });
    for (const z of [a, b]) expect((await t.get(`/pullzone/${z.Id}`)).body.Enabled).toBe(false);
    res = await op('POST', `/_edgeplane/accounts/${t.accountId}/balance`, { Balance: 12.5 });
    expect(res.body.Balance).toBe(12.5);
    for (const z of [a, b]) expect((await t.get(`/pullzone/${z.Id}`)).body.Enabled).toBe(true);
  });

  it('keeps a zone over its limit disabled even when funds return', async () => {
    const zone = await newZone({ MonthlyBandwidthLimit: 10 });
    await op('POST', `/_edgeplane/pullzones/${zone.Id}/usage`, { Bytes: 10 });
    await op('POST', `/_edgeplane/accounts/${t.accountId}/balance`, { Balance: 0 });
    await op('POST', `/_edgeplane/accounts/${t.accountId}/balance`, { Balance: 50 });
    expect((await t.get(`/pullzone/${zone.Id}`)).body.Enabled).toBe(false);
  });

  it('suspends and unsuspends', async () => {
    const zone = await newZone();
    expect((await op('POST', `/_edgeplane/pullzones/${zone.Id}/suspend`)).body.Suspended).toBe(true);
    expect((await t.get(`/pullzone/${zone.Id}`)).body.Suspended).toBe(true);
    expect((await op('POST', `/_edgeplane/pullzones/${zone.Id}/unsuspend`)).body.Suspended).toBe(false);
  });

  it('validates and answers 404 for unknown zones and accounts', async () => {
    const zone = await newZone();
    expect(errorFields(await op('POST', `/_edgeplane/pullzones/${zone.Id}/usage`, { Bytes: -1 }))).toEqual(['Bytes']);
    expect(errorFields(await op('POST', `/_edgeplane/pullzones/${zone.Id}/usage`, { Bytes: 1.5 }))).toEqual(['Bytes']);
    expect(errorFields(await op('POST', `/_edgeplane/accounts/${t.accountId}/balance`, { Balance: 'lots' }))).toEqual(['Balance']);
    expectErrorBody(await op('POST', '/_edgeplane/pullzones/9999/usage', { Bytes: 1 }), 404);
    expectErrorBody(await op('POST', '/_edgeplane/pullzones/9999/suspend'), 404);
    expectErrorBody(await op('POST', '/_edgeplane/accounts/9999/balance', { Balance: 1 }), 404);
  });
});
