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

const create = async () => (await t.post('/storagezone', { Name: 'files', Region: 'DE' })).body;
const read = async (id: number) => (await t.get(`/storagezone/${id}`)).body;
const CREDENTIAL = /^[0-9a-f-]{40,}$/;

describe('POST /storagezone/{id}/resetPassword', () => {
  it('answers 204 and replaces the read-write password only, sealed at rest', async () => {
    const zone = await create();
    const res = await t.post(`/storagezone/${zone.Id}/resetPassword`);
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const after = await read(zone.Id);
    expect(after.Password).toMatch(CREDENTIAL);
    expect(after.Password).not.toBe(zone.Password);
    expect(after.ReadOnlyPassword).toBe(zone.ReadOnlyPassword);
    const raw = JSON.stringify(await t.store.docs.get('storageZone', t.accountId, String(zone.Id)));
    expect(raw).not.toContain(after.Password);
  });

  it('answers 404 for unknown, foreign and deleted zones', async () => {
    const zone = await create();
    const other = await t.newAccount();
    expectErrorBody(await t.post(`/storagezone/${zone.Id}/resetPassword`, undefined, other.key), 404);
    expectErrorBody(await t.post('/storagezone/999999/resetPassword'), 404);
    expect((await read(zone.Id)).Password).toBe(zone.Password);
    await t.del(`/storagezone/${zone.Id}`);
    expectErrorBody(await t.post(`/storagezone/${zone.Id}/resetPassword`), 404);
  });
});

describe('POST /storagezone/resetReadOnlyPassword?id=', () => {
  it('answers 204 and replaces the read-only password only', async () => {
    const zone = await create();
    const res = await t.post(`/storagezone/resetReadOnlyPassword?id=${zone.Id}`);
    expect(res.status).toBe(204);
    const after = await read(zone.Id);
    expect(after.ReadOnlyPassword).toMatch(CREDENTIAL);
    expect(after.ReadOnlyPassword).not.toBe(zone.ReadOnlyPassword);
    expect(after.Password).toBe(zone.Password);
  });

  it.each(['', '?id=', '?id=0', '?id=abc'])('answers 400 naming id for %j', async (query) => {
    const res = await t.post(`/storagezone/resetReadOnlyPassword${query}`);
    expectErrorBody(res, 400, '/storagezone/resetReadOnlyPassword');
    expect(errorFields(res)).toEqual(['id']);
  });

  it('answers 404 for unknown, foreign and deleted zones', async () => {
    const zone = await create();
    const other = await t.newAccount();
    expectErrorBody(await t.post(`/storagezone/resetReadOnlyPassword?id=${zone.Id}`, undefined, other.key), 404);
    expectErrorBody(await t.post('/storagezone/resetReadOnlyPassword?id=999999'), 404);
    expect((await read(zone.Id)).ReadOnlyPassword).toBe(zone.ReadOnlyPassword);
    await t.del(`/storagezone/${zone.Id}`);
    expectErrorBody(await t.post(`/storagezone/resetReadOnlyPassword?id=${zone.Id}`), 404);
  });
});
