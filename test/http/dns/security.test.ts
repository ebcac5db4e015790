import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
let zoneId: number;
let recordId: number;
beforeEach(async () => {
  t = await createTestApp();
  zoneId = (await t.post('/dnszone', { Domain: 'example.com' })).body.Id;
  recordId = (await t.put(`/dnszone/${zoneId}/records`, { Type: 0, Name: 'keep', Value: '192.0.2.1' })).body.Id;
});
afterEach(async () => {
  await t.close();
});

const text = { 'content-type': 'text/plain' };
/** Every DNS operation; `writes` is what it does, not its method: checkavailability is a POST that only reads. */
const operations = () =>
  [
    { method: 'GET', url: '/dnszone', body: undefined, writes: false },
    { method: 'POST', url: '/dnszone', body: { Domain: 'other.com' }, writes: true },
    { method: 'POST', url: '/dnszone/checkavailability', body: { Name: 'free.com' }, writes: false },
    { method: 'GET', url: `/dnszone/${zoneId}`, body: undefined, writes: false },
    { method: 'POST', url: `/dnszone/${zoneId}`, body: { LoggingEnabled: true }, writes: true },
    { method: 'GET', url: `/dnszone/${zoneId}/export`, body: undefined, writes: false },
    { method: 'POST', url: `/dnszone/${zoneId}/import`, body: 'www A 192.0.2.9', headers: text, writes: true },
    { method: 'GET', url: `/dnszone/${zoneId}/records`, body: undefined, writes: false },
    { method: 'PUT', url: `/dnszone/${zoneId}/records`, body: { Type: 0, Value: '192.0.2.1' }, writes: true },
    { method: 'POST', url: `/dnszone/${zoneId}/records/${recordId}`, body: { Ttl: 60 }, writes: true },
    { method: 'DELETE', url: `/dnszone/${zoneId}/records/${recordId}`, body: undefined, writes: true },
    { method: 'DELETE', url: `/dnszone/${zoneId}`, body: undefined, writes: true },
  ] as const;

const send = (op: ReturnType<typeof operations>[number], key: string | null) => t.request(op.method, op.url, op.body, key, 'headers' in op ? op.headers : {});

/** The zone as the setup left it: nothing a refused request did may show. */
async function expectUnchanged() {
  const zone = (await t.get(`/dnszone/${zoneId}`)).body;
  expect(zone.LoggingEnabled).toBe(false);
  expect(zone.Records.map((r: { Id: number; Ttl: number }) => [r.Id, r.Ttl])).toEqual([[recordId, 300]]);
}

describe('DNS operations: access', () => {
  it('answer 401 without a key, with a wrong key and with a revoked key', async () => {
    const revoked = (await t.post('/apikey', {})).body;
    expect((await t.del(`/apikey/${revoked.Id}`)).status).toBe(204);
    for (const op of operations()) {
      for (const key of [null, 'not-a-key', revoked.Key as string]) {
        expectErrorBody(await send(op, key), 401, op.url);
      }
    }
    await expectUnchanged();
  });

  it('let a read-only key read, availability checks included, but not write (403)', async () => {
    const ro = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    for (const op of operations()) {
      const res = await send(op, ro);
      if (op.writes) expectErrorBody(res, 403, op.url);
      else expect(res.status).toBe(200);
    }
    await expectUnchanged();
    expect((await t.post('/dnszone', { Domain: 'other.com' })).status).toBe(201);
  });

  it('let another account neither read nor change the zone (404)', async () => {
    const other = await t.newAccount();
    for (const op of operations().filter((o) => o.url.startsWith(`/dnszone/${zoneId}`))) {
      expectErrorBody(await send(op, other.key), 404, op.url);
    }
    await expectUnchanged();
    expect((await t.get('/dnszone', other.key)).body.TotalItems).toBe(0);
  });

  it('answer bad JSON with 400 and another content type with 415', async () => {
    expectErrorBody(await t.request('PUT', `/dnszone/${zoneId}/records`, '{"Type":', undefined), 400);
    expectErrorBody(await t.request('POST', '/dnszone', 'example.com', undefined, { 'content-type': 'text/plain' }), 415);
  });
});
