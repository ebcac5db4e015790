import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext } from '../../helpers/app.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const create = async () => (await t.post('/videolibrary', { Name: 'Lectures' })).body;
const call = (id: number, op: string, body: unknown, key?: string) => t.post(`/videolibrary/${id}/${op}`, body, key);
const lists = async (lib: { Id: number; PullZoneId: number }) => {
  const library = (await t.get(`/videolibrary/${lib.Id}`)).body;
  const zone = (await t.get(`/pullzone/${lib.PullZoneId}`)).body;
  return { library: [library.AllowedReferrers, library.BlockedReferrers], zone: [zone.AllowedReferrers, zone.BlockedReferrers] };
};

describe.each([
  ['AllowedReferrers', 'addAllowedReferrer', 'removeAllowedReferrer', 0],
  ['BlockedReferrers', 'addBlockedReferrer', 'removeBlockedReferrer', 1],
] as const)('%s', (_list, add, remove, index) => {
  it(`${add} answers 200, lists the host name once in its canonical form, on the library and its pull zone`, async () => {
    const lib = await create();
    const res = await call(lib.Id, add, { Hostname: 'Example.COM' });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect((await call(lib.Id, add, { hostname: ' example.com ' })).status).toBe(200);
    expect((await call(lib.Id, add, { Hostname: '*.Videos.example.org' })).status).toBe(200);
    const after = await lists(lib);
    expect(after.library[index]).toEqual(['example.com', '*.videos.example.org']);
    expect(after.zone[index]).toEqual(['example.com', '*.videos.example.org']);
    expect(after.library[1 - index]).toEqual([]);
    expect(after.zone[1 - index]).toEqual([]);
  });

  it(`${remove} answers 200 and takes the host name off both lists; an unlisted name changes nothing`, async () => {
    const lib = await create();
    await call(lib.Id, add, { Hostname: 'a.example.com' });
    await call(lib.Id, add, { Hostname: 'b.example.com' });
    expect((await call(lib.Id, remove, { Hostname: 'A.example.com' })).status).toBe(200);
    expect((await call(lib.Id, remove, { Hostname: 'never.example.com' })).status).toBe(200);
    const after = await lists(lib);
    expect(after.library[index]).toEqual(['b.example.com']);
    expect(after.zone[index]).toEqual(['b.example.com']);
  });

  it.each([[{}], [{ Hostname: '' }], [{ Hostname: null }], [{ Hostname: 'not a host' }], [{ Hostname: 'https://example.com/' }], [{ Hostname: 'localhost' }]])(
    `${add} and ${remove} answer 400 naming Hostname for %j`,
    async (body) => {
      const lib = await create();
      for (const op of [add, remove]) {
        const res = await call(lib.Id, op, body);
        expectErrorBody(res, 400, `/videolibrary/${lib.Id}/${op}`);
        expect(errorFields(res)).toEqual(['Hostname']);
      }
      expect((await lists(lib)).library[index]).toEqual([]);
    },
  );

  it(`${add} and ${remove} answer 404 for unknown and foreign libraries`, async () => {
    const lib = await create();
    const other = await t.newAccount();
    for (const op of [add, remove]) {
      expectErrorBody(await call(lib.Id, op, { Hostname: 'example.com' }, other.key), 404, `/videolibrary/${lib.Id}/${op}`);
      expectErrorBody(await call(999_999, op, { Hostname: 'example.com' }), 404);
    }
    expect((await lists(lib)).library[index]).toEqual([]);
  });
});
