import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const create = async () => (await t.post('/videolibrary', { Name: 'Lectures' })).body;
const read = async (id: number) => (await t.get(`/videolibrary/${id}`)).body;
const CREDENTIAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{52}$/;

describe('POST /videolibrary/{id}/resetApiKey', () => {
  it('answers 204 and replaces the read-write key (and its deprecated alias) only, sealed at rest', async () => {
    const lib = await create();
    const res = await t.post(`/videolibrary/${lib.Id}/resetApiKey`);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const after = await read(lib.Id);
    expect(after.ApiKey).toMatch(CREDENTIAL);
    expect(after.ApiKey).not.toBe(lib.ApiKey);
    expect(after.ApiAccessKey).toBe(after.ApiKey);
    expect(after.ReadOnlyApiKey).toBe(lib.ReadOnlyApiKey);
    const raw = JSON.stringify(await t.store.docs.get('videoLibrary', t.accountId, String(lib.Id)));
    expect(raw).not.toContain(after.ApiKey);
  });
});

describe('POST /videolibrary/{id}/resetReadOnlyApiKey', () => {
  it('answers 204 and replaces the read-only key only', async () => {
    const lib = await create();
    expect((await t.post(`/videolibrary/${lib.Id}/resetReadOnlyApiKey`)).status).toBe(204);
    const after = await read(lib.Id);
    expect(after.ReadOnlyApiKey).toMatch(CREDENTIAL);
    expect(after.ReadOnlyApiKey).not.toBe(lib.ReadOnlyApiKey);
    expect(after.ApiKey).toBe(lib.ApiKey);
    expect(after.ApiAccessKey).toBe(lib.ApiAccessKey);
  });
});

describe('library key resets: errors', () => {
  it.each(['resetApiKey', 'resetReadOnlyApiKey'])('%s answers 404 for unknown and foreign libraries, 400 for a bad id', async (op) => {
    const lib = await create();
    const other = await t.newAccount();
    expectErrorBody(await t.post(`/videolibrary/${lib.Id}/${op}`, undefined, other.key), 404, `/videolibrary/${lib.Id}/${op}`);
    expectErrorBody(await t.post(`/videolibrary/999999/${op}`), 404);
    expectErrorBody(await t.post(`/videolibrary/0/${op}`), 400);
    expect(await read(lib.Id)).toEqual(lib);
  });
});
