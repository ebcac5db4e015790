/**
 * Many HTTP libraries set a content type on every request, bodiless ones included. An empty body
 * is an absent body whatever its content type: an operation that takes no body (or an optional
 * one) runs, and one that needs a body answers 400 naming it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext, type TestResponse } from '../../helpers/app.js';

const EMPTY_BODY_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/json', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded'];

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

/** A request with a content type and not one byte of body. */
async function emptyBody(method: 'POST' | 'DELETE' | 'PUT', url: string, contentType: string): Promise<TestResponse> {
  const res = await t.app.inject({ method, url, headers: { accesskey: t.key, 'content-type': contentType, 'content-length': '0' } });
  return { status: res.statusCode, body: res.body.length > 0 ? JSON.parse(res.body) : res.body, headers: res.headers };
}

const created = async (url: string, body: unknown): Promise<Record<string, unknown>> => {
  const res = await t.post(url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Record<string, unknown>;
};

describe('an empty body with a content type', () => {
  it.each(EMPTY_BODY_TYPES)('runs POST /storagezone/{id}/resetPassword (%s)', async (contentType) => {
    const zone = await created('/storagezone', { Name: 'files', Region: 'DE' });
    const res = await emptyBody('POST', `/storagezone/${zone['Id']}/resetPassword`, contentType);
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const after = (await t.get(`/storagezone/${zone['Id']}`)).body;
    expect(after.Password).not.toBe(zone['Password']);
    expect(after.ReadOnlyPassword).toBe(zone['ReadOnlyPassword']);
  });

  it.each(EMPTY_BODY_TYPES)('runs POST /pullzone/{id}/purgeCache, whose body is optional (%s)', async (contentType) => {
    const zone = await created('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com' });
    expect((await emptyBody('POST', `/pullzone/${zone['Id']}/purgeCache`, contentType)).status).toBe(204);
    expect((await emptyBody('POST', `/pullzone/${zone['Id']}/purgeCache`, contentType)).status).toBe(204);
    expect((await t.get(`/pullzone/${zone['Id']}`)).body.CacheVersion).toBe(2);
  });

  it.each(EMPTY_BODY_TYPES)('runs DELETE /pullzone/{id} (%s)', async (contentType) => {
    const zone = await created('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com' });
    expect((await emptyBody('DELETE', `/pullzone/${zone['Id']}`, contentType)).status).toBe(204);
    expectErrorBody(await t.get(`/pullzone/${zone['Id']}`), 404);
  });

  it('runs a container operation without a body', async () => {
    const app = await created('/mc/apps', {
      name: 'shop',
      runtimeType: 'shared',
      autoScaling: { min: 1, max: 2 },
      regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
    });
    expect((await emptyBody('DELETE', `/mc/apps/${app['id']}`, 'application/json')).status).toBe(200);
    expectErrorBody(await t.get(`/mc/apps/${app['id']}`), 404);
  });

  it.each(EMPTY_BODY_TYPES)('answers 400 naming the body where one is required, and creates nothing (%s)', async (contentType) => {
    for (const [method, url] of [
      ['POST', '/storagezone'],
      ['POST', '/dnszone'],
      ['POST', '/mc/apps'],
    ] as const) {
      const res = await emptyBody(method, url, contentType);
      expectErrorBody(res, 400, url);
      expect(errorFields(res)).toEqual(['body']);
      expect(res.body.detail).toBe('A non-empty request body is required.');
    }
    expect((await t.get('/storagezone')).body).toEqual([]);
    expect((await t.get('/dnszone')).body.TotalItems).toBe(0);
    expect((await t.get('/mc/apps')).body.items).toEqual([]);
  });

  it('answers a required body left out without a content type the same way', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/storagezone', headers: { accesskey: t.key } });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).errors).toEqual([{ field: 'body', message: 'A non-empty request body is required.' }]);
  });

  it('still refuses a body that is there: blanks are not JSON, other types are a 415', async () => {
    const zone = await created('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com' });
    const blank = await t.request('POST', `/pullzone/${zone['Id']}/purgeCache`, ' ', undefined, { 'content-type': 'application/json' });
    expectErrorBody(blank, 400);
    expect(blank.body.detail).toBe('The request body is not valid JSON.');
    expectErrorBody(await t.request('POST', `/pullzone/${zone['Id']}/purgeCache`, '{}', undefined, { 'content-type': 'text/plain' }), 415);
    expectErrorBody(await t.request('DELETE', `/pullzone/${zone['Id']}`, 'x', undefined, { 'content-type': 'application/x-www-form-urlencoded' }), 415);
    const after = (await t.get(`/pullzone/${zone['Id']}`)).body;
    expect(after.CacheVersion).toBe(0);
  });

  it('keeps the zone file import: an empty text file is a file, an empty JSON body no file', async () => {
    const zone = await created('/dnszone', { Domain: 'example.com' });
    const file = await t.request('POST', `/dnszone/${zone['Id']}/import`, '', undefined, { 'content-type': 'text/plain' });
    expect(file.body).toEqual({ RecordsSuccessful: 0, RecordsFailed: 0, RecordsSkipped: 0 });
    const none = await emptyBody('POST', `/dnszone/${zone['Id']}/import`, 'application/json');
    expectErrorBody(none, 400);
    expect(errorFields(none)).toEqual(['body']);
  });

  it('works over a real connection, which stays usable afterwards', async () => {
    const zone = await created('/pullzone', { Name: 'site', OriginUrl: 'https://origin.example.com' });
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const headers = { AccessKey: t.key, 'Content-Type': 'application/json' };
    const purge = await fetch(`${base}/pullzone/${zone['Id']}/purgeCache`, { method: 'POST', headers });
    expect(purge.status).toBe(204);
    const read = await fetch(`${base}/pullzone/${zone['Id']}`, { headers });
    expect(((await read.json()) as { CacheVersion: number }).CacheVersion).toBe(1);
    expect((await fetch(`${base}/pullzone/${zone['Id']}`, { method: 'DELETE', headers })).status).toBe(204);
  });
});
