import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';

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

const createKeys = async (n: number) => {
  for (let i = 0; i < n; i++) expect((await t.post('/apikey', {})).status).toBe(201);
};

describe('GET /apikey', () => {
  it('lists the account keys with the page object of 2.1', async () => {
    const res = await t.get('/apikey');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      Items: [{ Id: expect.any(Number), Key: t.key, Roles: ['FullAccess'] }],
      CurrentPage: 1,
      TotalItems: 1,
      HasMoreItems: false,
    });
  });

  it('shows a read-only key no value of a key that can write (it would lead to it), and read-only values as they are', async () => {
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body as { Id: number; Key: string };
    const res = await t.get('/apikey', readOnly.Key);
    expect(res.status).toBe(200);
    expect(res.body.Items).toEqual([
      { Id: expect.any(Number), Key: null, Roles: ['FullAccess'] },
      { Id: readOnly.Id, Key: readOnly.Key, Roles: ['ReadOnly'] },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(t.key);
    // A full-access key still sees every value.
    expect((await t.get('/apikey')).body.Items.map((k: { Key: string }) => k.Key)).toEqual([t.key, readOnly.Key]);
  });

  it('pages exactly: CurrentPage, TotalItems and HasMoreItems on every page, stable order', async () => {
    await createKeys(11); // 12 keys in all
    const seen: number[] = [];
    for (const page of [1, 2, 3]) {
      const res = await t.get(`/apikey?page=${page}&perPage=5`);
      expect(res.status).toBe(200);
      expect(res.body.CurrentPage).toBe(page);
      expect(res.body.TotalItems).toBe(12);
      expect(res.body.HasMoreItems).toBe(page < 3);
      expect(res.body.Items).toHaveLength(page < 3 ? 5 : 2);
      seen.push(...res.body.Items.map((k: { Id: number }) => k.Id));
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(12);
    const beyond = await t.get('/apikey?page=4&perPage=5');
    expect(beyond.body).toMatchObject({ Items: [], CurrentPage: 4, TotalItems: 12, HasMoreItems: false });
  });

  it('defaults to page 1 and 1000 per page', async () => {
    await createKeys(6);
    const res = await t.get('/apikey');
    expect(res.body.Items).toHaveLength(7);
    expect(res.body.CurrentPage).toBe(1);
  });

  it.each([
    ['perPage=4', 'perPage'],
    ['perPage=1001', 'perPage'],
    ['page=0', 'page'],
    ['page=2147483648', 'page'],
    ['perPage=abc', 'perPage'],
    ['page=1.5', 'page'],
  ])('rejects %s with a 400 naming the field', async (query, field) => {
    const res = await t.get(`/apikey?${query}`);
    expectErrorBody(res, 400, '/apikey');
    expect(errorFields(res)).toEqual([field]);
    expect(res.body.Field).toBe(field);
    expect(res.body.ErrorKey).toBe('validation_error');
  });

  it.each(['perPage=5', 'perPage=1000', 'page=1', 'page=2147483647'])('accepts the boundary %s', async (query) => {
    expect((await t.get(`/apikey?${query}`)).status).toBe(200);
  });

  it('answers 401 without a key and with a wrong key', async () => {
    expectErrorBody(await t.get('/apikey', null), 401, '/apikey');
    expectErrorBody(await t.get('/apikey', 'not-a-key'), 401, '/apikey');
    expectErrorBody(await t.get('/apikey', 'x'.repeat(5000)), 401, '/apikey');
  });

  it("shows one account none of another account's keys", async () => {
    const other = await t.newAccount();
    const res = await t.get('/apikey', other.key);
    expect(res.body.TotalItems).toBe(1);
    expect(res.body.Items[0].Key).toBe(other.key);
  });
});

describe('POST /apikey and DELETE /apikey/{id} (extensions)', () => {
  it('creates a key that works, with the requested roles (names bound case-insensitively)', async () => {
    const res = await t.post('/apikey', { roles: ['ReadOnly'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ Id: expect.any(Number), Key: expect.any(String), Roles: ['ReadOnly'] });
    expect((await t.get('/apikey', res.body.Key)).status).toBe(200);
  });

  it('a read-only key may read but not write', async () => {
    const ro = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    expect((await t.get('/apikey', ro)).status).toBe(200);
    const res = await t.post('/apikey', {}, ro);
    expectErrorBody(res, 403, '/apikey');
  });

  it('rejects unknown roles naming the element', async () => {
    const res = await t.post('/apikey', { Roles: ['FullAccess', 'Root'] });
    expectErrorBody(res, 400);
    expect(errorFields(res)).toEqual(['Roles[1]']);
  });

  it('revokes a key at once; a second revoke and a foreign id are 404', async () => {
    const created = (await t.post('/apikey', {})).body;
    expect((await t.del(`/apikey/${created.Id}`)).status).toBe(204);
    expectErrorBody(await t.get('/apikey', created.Key), 401);
    expectErrorBody(await t.del(`/apikey/${created.Id}`), 404);
    const other = await t.newAccount();
    const foreign = (await t.get('/apikey', other.key)).body.Items[0].Id;
    expectErrorBody(await t.del(`/apikey/${foreign}`), 404);
    expect((await t.get('/apikey', other.key)).status).toBe(200);
  });

  it('answers bad JSON with 400, another content type with 415', async () => {
    expectErrorBody(await t.request('POST', '/apikey', '{"Roles":', undefined), 400);
    expectErrorBody(await t.request('POST', '/apikey', 'x', undefined, { 'content-type': 'text/plain' }), 415);
  });

  it('keeps keys across a restart', async () => {
    const created = (await t.post('/apikey', {})).body;
    await t.restart();
    const res = await t.get('/apikey', created.Key);
    expect(res.status).toBe(200);
    expect(res.body.Items.map((k: { Key: string }) => k.Key)).toEqual([t.key, created.Key]);
  });
});
