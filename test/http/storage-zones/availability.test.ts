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

const check = (body: unknown, key?: string) => t.post('/storagezone/checkavailability', body, key);

describe('POST /storagezone/checkavailability', () => {
  it('answers 200 with Available true for a free name and false for a used one, whoever uses it', async () => {
    const free = await check({ Name: 'fresh-name' });
    expect(free.status).toBe(200);
    expect(free.body).toEqual({ Available: true });

    const other = await t.newAccount();
    expect((await t.post('/storagezone', { Name: 'taken', Region: 'DE' }, other.key)).status).toBe(201);
    expect((await check({ Name: 'taken' })).body).toEqual({ Available: false });
    expect((await check({ name: 'TAKEN' })).body).toEqual({ Available: false });
  });

  it('reports the name of a deleted zone as available again', async () => {
    const zone = (await t.post('/storagezone', { Name: 'recycled', Region: 'DE' })).body;
    expect((await check({ Name: 'recycled' })).body.Available).toBe(false);
    await t.del(`/storagezone/${zone.Id}`);
    expect((await check({ Name: 'recycled' })).body.Available).toBe(true);
  });

  it('answers a read-only key too: checking a name changes nothing, though it is a POST', async () => {
    expect((await t.post('/storagezone', { Name: 'taken', Region: 'DE' })).status).toBe(201);
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    expect(await check({ Name: 'taken' }, readOnly)).toMatchObject({ status: 200, body: { Available: false } });
    expect(await check({ Name: 'fresh-name' }, readOnly)).toMatchObject({ status: 200, body: { Available: true } });
    expectErrorBody(await t.post('/storagezone', { Name: 'fresh-name', Region: 'DE' }, readOnly), 403);
  });

  it.each([[{}], [{ Name: '' }], [{ Name: null }], [{ Name: 'has space' }], [{ Name: 'a'.repeat(65) }]])('answers 400 naming Name for %j', async (body) => {
    const res = await check(body);
    expectErrorBody(res, 400, '/storagezone/checkavailability');
    expect(errorFields(res)).toEqual(['Name']);
  });
});
