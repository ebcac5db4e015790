/**
 * The file API called from a page served elsewhere (the web console, on the API's port): a
 * browser's preflight is answered with what a page may send, and answers carry the header that
 * lets the page read them. The password is still required: allowing the origin grants nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createStorageZone, files, type StoragePlane, startStoragePlane, type Zone } from '../../helpers/storage-plane.js';

const PAGE = { origin: 'http://127.0.0.1:8080' };

let t: TestContext;
let plane: StoragePlane;
let zone: Zone;

beforeAll(async () => {
  t = await createTestApp();
  plane = await startStoragePlane(t);
  zone = await createStorageZone(t, 'cross-origin');
});

afterAll(async () => {
  await plane?.close();
  await t?.close();
});

describe('the file API across origins', () => {
  it("answers a browser's preflight with the methods and headers a page may send", async () => {
    const res = await fetch(files(plane, zone).url('a.txt'), {
      method: 'OPTIONS',
      headers: { ...PAGE, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'accesskey, content-type' },
    });
    expect(res.status).toBe(204);
    expect(Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-')))).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, PUT, DELETE',
      'access-control-allow-headers': 'AccessKey, Content-Type, Checksum, Override-Content-Type, AllowRootDelete',
      'access-control-expose-headers': 'Content-Length, Content-Type, Content-Disposition, ETag, Last-Modified',
      'access-control-max-age': '600',
    });
  });

  it('lets the page read answers, refusals included, and still wants the password', async () => {
    const api = files(plane, zone);
    expect((await api.put('a.txt', 'hello', PAGE)).headers.get('access-control-allow-origin')).toBe('*');
    const read = await api.get('a.txt', PAGE);
    expect([read.status, read.headers.get('access-control-allow-origin'), await read.text()]).toEqual([200, '*', 'hello']);
    const refused = await api.get('a.txt', PAGE, 'wrong');
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([401, '*']);
    // Without an Origin (not a browser's cross-origin call), nothing is added.
    expect((await api.get('a.txt')).headers.get('access-control-allow-origin')).toBeNull();
  });
});
