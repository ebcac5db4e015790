import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
let zoneId: number;
beforeEach(async () => {
  t = await createTestApp();
  zoneId = (await t.post('/storagezone', { Name: 'mine', Region: 'DE' })).body.Id;
});
afterEach(async () => {
  await t.close();
});

/** `own`: the operation names the zone, so another account must get a 404. `writes`: what it does, not its method. */
const operations = () =>
  [
    { method: 'POST', url: '/storagezone', body: { Name: 'another', Region: 'DE' }, writes: true, own: false },
    { method: 'GET', url: '/storagezone', body: undefined, writes: false, own: false },
    { method: 'GET', url: '/storagezone?page=1', body: undefined, writes: false, own: false },
    { method: 'GET', url: `/storagezone/${zoneId}`, body: undefined, writes: false, own: true },
    { method: 'POST', url: `/storagezone/${zoneId}`, body: { Rewrite404To200: true }, writes: true, own: true },
    { method: 'POST', url: `/storagezone/${zoneId}/resetPassword`, body: undefined, writes: true, own: true },
    { method: 'POST', url: `/storagezone/resetReadOnlyPassword?id=${zoneId}`, body: undefined, writes: true, own: true },
    { method: 'POST', url: '/storagezone/checkavailability', body: { Name: 'free' }, writes: false, own: false },
    { method: 'DELETE', url: `/storagezone/${zoneId}`, body: undefined, writes: true, own: true },
  ] as const;

const path = (url: string) => url.split('?')[0];
const snapshot = async () => [(await t.get(`/storagezone/${zoneId}`)).body, (await t.get('/storagezone?includeDeleted=true')).body];

describe('storage zone operations: access', () => {
  it('answer 401 without a key, with a wrong key and with a revoked key', async () => {
    const before = await snapshot();
    const revoked = (await t.post('/apikey', {})).body;
    expect((await t.del(`/apikey/${revoked.Id}`)).status).toBe(204);
    for (const op of operations()) {
      for (const key of [null, '', 'not-a-key', revoked.Key as string]) {
        expectErrorBody(await t.request(op.method, op.url, op.body, key), 401, path(op.url));
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('let a read-only key read, and check a name (a POST that changes nothing), but change nothing (403)', async () => {
    const before = await snapshot();
    const ro = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    for (const op of operations()) {
      const res = await t.request(op.method, op.url, op.body, ro);
      if (op.writes) expectErrorBody(res, 403, path(op.url));
      else expect(res.status, op.url).toBe(200);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('let another account neither see nor touch the zone (404), nor list it', async () => {
    const before = await snapshot();
    const other = await t.newAccount();
    for (const op of operations().filter((o) => o.own)) {
      expectErrorBody(await t.request(op.method, op.url, op.body, other.key), 404, path(op.url));
    }
    expect((await t.get('/storagezone', other.key)).body).toEqual([]);
    expect((await t.get('/storagezone?includeDeleted=true&page=1', other.key)).body.TotalItems).toBe(0);
    expect(await snapshot()).toEqual(before);
  });
});
