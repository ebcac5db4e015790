import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
let libraryId: number;
beforeEach(async () => {
  t = await createTestApp();
  libraryId = (await t.post('/videolibrary', { Name: 'Mine' })).body.Id;
});
afterEach(async () => { await t.close(); });

const operations = () => [
  { method: 'POST', url: '/videolibrary', body: { Name: 'Other' }, writes: true },
  { method: 'GET', url: `/videolibrary/${libraryId}`, body: undefined, writes: false },
] as const;

const libraryCount = async () => (await t.store.docs.list('videoLibrary', t.accountId, { offset: 0, limit: 100 })).total;

describe('video library operations: access', () => {
  it('answer 401 without a key, with a wrong key and with a revoked key', async () => {
    const revoked = (await t.post('/apikey', {})).body;
    expect((await t.del(`/apikey/${revoked.Id}`)).status).toBe(204);
    for (const op of operations()) {
      for (const key of [null, '', 'not-a-key', revoked.Key as string]) {
        expectErrorBody(await t.request(op.method, op.url, op.body, key), 401, op.url);
      }
    }
    expect(await libraryCount()).toBe(1);
  });

  it('let a read-only key read but not create (403), creating no zones either', async () => {
    const ro = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    for (const op of operations()) {
      const res = await t.request(op.method, op.url, op.body, ro);
      if (op.writes) expectErrorBody(res, 403, op.url);
      else expect(res.status).toBe(200);
    }
    expect(await libraryCount()).toBe(1);
    expect((await t.store.docs.list('storageZone', t.accountId, { offset: 0, limit: 100 })).total).toBe(1);
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
