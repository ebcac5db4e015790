/**
 * Paths as the platform reads them on the file API: empty segments (`/zone//a.txt`, what the
 * platform's own SDK sends) name the same file as without them, and a file's path with a trailing
 * slash names no directory (404, not an empty listing). Traversal spelled with empty segments is
 * refused with the rest (hostile.test.ts); S3 keys stay literal.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createStorageZone, describe as describeFile, files, startStoragePlane, type StoragePlane, type Zone } from '../../helpers/storage-plane.js';

let t: TestContext;
let plane: StoragePlane;
let zone: Zone;
let api: ReturnType<typeof files>;

beforeEach(async () => {
  t = await createTestApp();
  plane = await startStoragePlane(t);
  zone = await createStorageZone(t, 'paths-zone');
  api = files(plane, zone);
});
afterEach(async () => {
  await plane.close();
  await t.close();
});

/** A request to `/<zone><path>` exactly as written (fetch keeps `//`). */
const at = (path: string, init: RequestInit = {}) =>
  fetch(`${plane.url}/${zone.Name}${path}`, { ...init, headers: { AccessKey: zone.Password, ...(init.headers as Record<string, string>) } });

it('takes empty segments as the platform does: /zone//a//b.txt is /zone/a/b.txt, on every method', async () => {
  const put = await at('//docs//note.txt', { method: 'PUT', body: 'same file' });
  expect(put.status).toBe(201);
  expect(await (await api.get('docs/note.txt')).text()).toBe('same file');
  expect(await (await at('//docs/note.txt')).text()).toBe('same file');
  expect((await describeFile(plane, `/${zone.Name}//docs///note.txt`, zone.Password)).body).toMatchObject({
    ObjectName: 'note.txt',
    Path: `/${zone.Name}/docs/`,
  });
  const listed = await at('//docs//');
  expect(listed.status).toBe(200);
  expect(((await listed.json()) as { ObjectName: string }[]).map((o) => o.ObjectName)).toEqual(['note.txt']);
  expect(((await (await at('//')).json()) as { ObjectName: string }[]).map((o) => o.ObjectName)).toEqual(['docs']);
  // Nothing was stored under an odd name: one directory, one file.
  expect((await t.store.files.range(String(zone.Id), { prefix: '', limit: 10 })).map((f) => f.path)).toEqual(['docs/', 'docs/note.txt']);
  expect((await at('//docs//note.txt', { method: 'DELETE' })).status).toBe(200);
  expect((await api.get('docs/note.txt')).status).toBe(404);
});

it("answers 404 for a file's path with a trailing slash, and for a directory under a file; an unknown directory stays []", async () => {
  await api.put('docs/a.txt', 'a file');
  const notFound = { status: 404, body: { HttpCode: 404, Message: 'Object Not Found' } };
  expect(await api.list('docs/a.txt/')).toEqual(notFound);
  expect(await api.list('docs/a.txt/deeper/')).toEqual(notFound);
  expect((await api.head('docs/a.txt/')).status).toBe(404);
  expect(await api.list('docs/nowhere/')).toEqual({ status: 200, body: [] });
  expect(await api.list('docs/')).toMatchObject({ status: 200, body: [{ ObjectName: 'a.txt' }] });
  // An empty directory is a directory: listed, empty.
  expect((await api.put('empty/', '')).status).toBe(201);
  expect(await api.list('empty/')).toEqual({ status: 200, body: [] });
});
