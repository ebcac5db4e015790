import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
let zoneId: number;
beforeEach(async () => {
  t = await createTestApp();
  zoneId = (await t.post('/dnszone', { Domain: 'example.com' })).body.Id;
});
afterEach(async () => { await t.close(); });

const operations = () => [
  { method: 'POST', url: '/dnszone', body: { Domain: 'other.com' }, writes: true },
  { method: 'GET', url: `/dnszone/${zoneId}`, body: undefined, writes: false },
  { method: 'PUT', url: `/dnszone/${zoneId}/records`, body: { Type: 0, Value: '192.0.2.1' }, writes: true },
] as const;

describe('DNS operations: access', () => {
  it('answer 401 without a key, with a wrong key and with a revoked key', async () => {
    const revoked = (await t.post('/apikey', {})).body;
    expect((await t.del(`/apikey/${revoked.Id}`)).status).toBe(204);
    for (const op of operations()) {
      for (const key of [null, 'not-a-key', revoked.Key as string]) {
        expectErrorBody(await t.request(op.method, op.url, op.body, key), 401, op.url);
      }
    }
    expect((await t.get(`/dnszone/${zoneId}`)).body.Records).toEqual([]);
  });

  it('let a read-only key read but not write (403)', async () => {
    const ro = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    for (const op of operations()) {
      const res = await t.request(op.method, op.url, op.body, ro);
      if (op.writes) expectErrorBody(res, 403, op.url);
      else expect(res.status).toBe(200);
    }
    expect((await t.get(`/dnszone/${zoneId}`)).body.Records).toEqual([]);
    expect((await t.post('/dnszone', { Domain: 'other.com' })).status).toBe(201);
  });

  it('let another account neither read nor change the zone (404)', async () => {
    const other = await t.newAccount();
    for (const op of operations().filter((o) => o.url !== '/dnszone')) {
      expectErrorBody(await t.request(op.method, op.url, op.body, other.key), 404, op.url);
    }
  });

  it('answer bad JSON with 400 and another content type with 415', async () => {
    expectErrorBody(await t.request('PUT', `/dnszone/${zoneId}/records`, '{"Type":', undefined), 400);
    expectErrorBody(await t.request('POST', '/dnszone', 'example.com', undefined, { 'content-type': 'text/plain' }), 415);
  });
});
