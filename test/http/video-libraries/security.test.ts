import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
let libraryId: number;
beforeEach(async () => {
  t = await createTestApp();
  libraryId = (await t.post('/videolibrary', { Name: 'Mine' })).body.Id;
});
afterEach(async () => {
  await t.close();
});

/** `own`: the operation names the library, so another account must get a 404. */
const operations = () =>
  [
    { method: 'POST', url: '/videolibrary', body: { Name: 'Other' }, writes: true, own: false },
    { method: 'GET', url: '/videolibrary', body: undefined, writes: false, own: false },
    { method: 'GET', url: '/videolibrary/languages', body: undefined, writes: false, own: false },
    { method: 'GET', url: `/videolibrary/${libraryId}`, body: undefined, writes: false, own: true },
    { method: 'POST', url: `/videolibrary/${libraryId}`, body: { Name: 'Renamed' }, writes: true, own: true },
    { method: 'POST', url: `/videolibrary/${libraryId}/resetApiKey`, body: undefined, writes: true, own: true },
    { method: 'POST', url: `/videolibrary/${libraryId}/resetReadOnlyApiKey`, body: undefined, writes: true, own: true },
    { method: 'POST', url: `/videolibrary/${libraryId}/addAllowedReferrer`, body: { Hostname: 'example.com' }, writes: true, own: true },
    { method: 'POST', url: `/videolibrary/${libraryId}/removeAllowedReferrer`, body: { Hostname: 'example.com' }, writes: true, own: true },
    { method: 'POST', url: `/videolibrary/${libraryId}/addBlockedReferrer`, body: { Hostname: 'example.com' }, writes: true, own: true },
    { method: 'POST', url: `/videolibrary/${libraryId}/removeBlockedReferrer`, body: { Hostname: 'example.com' }, writes: true, own: true },
    { method: 'DELETE', url: `/videolibrary/${libraryId}`, body: undefined, writes: true, own: true },
  ] as const;

const snapshot = async () => [
  (await t.get(`/videolibrary/${libraryId}`)).body,
  (await t.get('/videolibrary')).body,
  (await t.get('/storagezone?includeDeleted=true')).body,
];

const libraryCount = async () => (await t.store.docs.list('videoLibrary', t.accountId, { offset: 0, limit: 100 })).total;

describe('video library operations: access', () => {
  it('answer 401 without a key, with a wrong key and with a revoked key', async () => {
    const before = await snapshot();
    const revoked = (await t.post('/apikey', {})).body;
    expect((await t.del(`/apikey/${revoked.Id}`)).status).toBe(204);
    for (const op of operations()) {
      for (const key of [null, '', 'not-a-key', revoked.Key as string]) {
        expectErrorBody(await t.request(op.method, op.url, op.body, key), 401, op.url);
      }
    }
    expect(await libraryCount()).toBe(1);
    expect(await snapshot()).toEqual(before);
  });

  it('let a read-only key read but change nothing (403), creating no zones either', async () => {
    const before = await snapshot();
    const ro = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    for (const op of operations()) {
      const res = await t.request(op.method, op.url, op.body, ro);
      if (op.writes) expectErrorBody(res, 403, op.url);
      else expect(res.status, op.url).toBe(200);
    }
    expect(await libraryCount()).toBe(1);
    expect((await t.store.docs.list('storageZone', t.accountId, { offset: 0, limit: 100 })).total).toBe(1);
    expect(await snapshot()).toEqual(before);
  });

  it('let another account touch none of the operations that name the library (404)', async () => {
    const before = await snapshot();
    const other = await t.newAccount();
    for (const op of operations().filter((o) => o.own)) {
      expectErrorBody(await t.request(op.method, op.url, op.body, other.key), 404, op.url);
    }
    expect((await t.get('/videolibrary', other.key)).body).toMatchObject({ Items: [], TotalItems: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('let another account neither read the library nor its zones (404)', async () => {
    const lib = (await t.get(`/videolibrary/${libraryId}`)).body;
    const other = await t.newAccount();
    expectErrorBody(await t.get(`/videolibrary/${libraryId}`, other.key), 404, `/videolibrary/${libraryId}`);
    expectErrorBody(await t.get(`/pullzone/${lib.PullZoneId}`, other.key), 404);
    expectErrorBody(await t.get(`/storagezone/${lib.StorageZoneId}`, other.key), 404);
  });

  it('let another account create its own library, invisible to the first', async () => {
    const other = await t.newAccount();
    const theirs = await t.post('/videolibrary', { Name: 'Theirs' }, other.key);
    expect(theirs.status).toBe(201);
    expect((await t.get(`/videolibrary/${theirs.body.Id}`, other.key)).status).toBe(200);
    expectErrorBody(await t.get(`/videolibrary/${theirs.body.Id}`), 404);
  });
});
