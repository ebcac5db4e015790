/**
 * A video library's images: the watermark and the live stream's thumbnail and watermark. Bytes are
 * checked to be an image, kept in the files backend, served back, replaced and removed.
 */
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, errorFields, expectErrorBody, type TestContext, TestClock } from '../../helpers/app.js';
import { gif, jpeg, png, webp } from './image-fixtures.js';

let t: TestContext;
let library: { Id: number; HasWatermark: boolean; WatermarkVersion: number };
beforeEach(async () => {
  // The orphan sweep compares blob files' real times with the clock: the clock starts at the real time.
  t = await createTestApp({}, { clock: new TestClock(Date.now()) });
  library = (await t.post('/videolibrary', { Name: 'Lectures' })).body;
});
afterEach(async () => {
  await t.close();
});

const upload = (path: string, bytes: Buffer, contentType = 'image/png', key?: string) =>
  t.request('PUT', `/videolibrary/${library.Id}/${path}`, bytes, key, { 'content-type': contentType });
const read = (path: string, key?: string) => t.app.inject({ method: 'GET', url: `/videolibrary/${library.Id}/${path}`, headers: { accesskey: key ?? t.key } });
const blobsOf = async (id: number) => {
  const keys: string[] = [];
  for await (const blob of t.app.services.files.blobs.list(`videolibrary-${id}/`)) keys.push(blob.key);
  return keys;
};

describe('PUT /videolibrary/{id}/watermark', () => {
  it('keeps the image, marks the library as watermarked and serves the bytes back', async () => {
    const image = png(120, 40);
    const res = await upload('watermark', image);
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const after = (await t.get(`/videolibrary/${library.Id}`)).body;
    expect(after.HasWatermark).toBe(true);
    expect(after.WatermarkVersion).toBe(library.WatermarkVersion + 1);
    const back = await read('watermark');
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('image/png');
    expect(back.rawPayload.equals(image)).toBe(true);
    expect(await blobsOf(library.Id)).toHaveLength(1);
  });

  it.each([
    ['JPEG', jpeg(640, 360), 'image/jpeg'],
    ['GIF', gif(32, 32), 'image/gif'],
    ['WebP', webp(300, 200), 'image/webp'],
  ])('takes a %s image whatever the content type says, and serves it with its real type', async (_name, image, type) => {
    expect((await upload('watermark', image, 'application/octet-stream')).status).toBe(204);
    const back = await read('watermark');
    expect(back.headers['content-type']).toBe(type);
    expect(back.rawPayload.equals(image)).toBe(true);
  });

  it('replaces the image; the old bytes leave the backend after a minute of grace', async () => {
    expect((await upload('watermark', png(10, 10))).status).toBe(204);
    const second = png(20, 20);
    expect((await upload('watermark', second)).status).toBe(204);
    expect((await t.get(`/videolibrary/${library.Id}`)).body.WatermarkVersion).toBe(library.WatermarkVersion + 2);
    expect(await blobsOf(library.Id)).toHaveLength(2);
    t.clock.advance(61_000);
    await t.app.services.fileSweeper.sweepDead();
    expect(await blobsOf(library.Id)).toHaveLength(1);
    expect((await read('watermark')).rawPayload.equals(second)).toBe(true);
  });

  it('refuses bytes that are not an image, or an image of no sensible size, with 400 naming the body; nothing is kept', async () => {
    for (const bad of [Buffer.from('just some text, not a picture'), png(10, 10).subarray(0, 20), png(0, 10), png(9000, 1)]) {
      const res = await upload('watermark', bad);
      expectErrorBody(res, 400, `/videolibrary/${library.Id}/watermark`);
      expect(errorFields(res)).toEqual(['body']);
    }
    const empty = await t.app.inject({
      method: 'PUT',
      url: `/videolibrary/${library.Id}/watermark`,
      headers: { accesskey: t.key, 'content-type': 'image/png', 'content-length': '0' },
    });
    expect(empty.statusCode).toBe(400);
    expect(JSON.parse(empty.body).errors).toEqual([{ field: 'body', message: 'Send the image as the request body.' }]);
    expect((await t.get(`/videolibrary/${library.Id}`)).body).toMatchObject({ HasWatermark: false, WatermarkVersion: library.WatermarkVersion });
    expect(await blobsOf(library.Id)).toEqual([]);
    expectErrorBody(await t.get(`/videolibrary/${library.Id}/watermark`), 404);
  });

  it('answers 415 to a body of another type and 413 to one over 10 MB', async () => {
    expectErrorBody(await upload('watermark', Buffer.from('{"image": 1}'), 'application/json'), 415);
    expectErrorBody(await upload('watermark', png(4, 4), 'text/plain'), 415);
    const huge = Buffer.concat([png(10, 10), Buffer.alloc(10 * 1024 * 1024)]);
    expect((await upload('watermark', huge)).status).toBe(413);
    expect(await blobsOf(library.Id)).toEqual([]);
  });
});

describe('live stream images', () => {
  it.each(['live/thumbnail', 'live/watermark'])('keeps %s apart from the watermark', async (path) => {
    const image = jpeg(1280, 720);
    expect((await upload(path, image, 'image/jpeg')).status).toBe(204);
    expect((await read(path)).rawPayload.equals(image)).toBe(true);
    expectErrorBody(await t.get(`/videolibrary/${library.Id}/watermark`), 404);
    expect((await t.get(`/videolibrary/${library.Id}`)).body).toMatchObject({ HasWatermark: false, WatermarkVersion: library.WatermarkVersion });
    expect((await t.del(`/videolibrary/${library.Id}/${path}`)).status).toBe(204);
    expectErrorBody(await t.get(`/videolibrary/${library.Id}/${path}`), 404);
  });
});

describe('DELETE /videolibrary/{id}/watermark', () => {
  it('removes the image and the mark; deleting again changes nothing', async () => {
    await upload('watermark', png(8, 8));
    expect((await t.del(`/videolibrary/${library.Id}/watermark`)).status).toBe(204);
    const after = (await t.get(`/videolibrary/${library.Id}`)).body;
    expect(after).toMatchObject({ HasWatermark: false, WatermarkVersion: library.WatermarkVersion + 2 });
    expectErrorBody(await t.get(`/videolibrary/${library.Id}/watermark`), 404);
    expect((await t.del(`/videolibrary/${library.Id}/watermark`)).status).toBe(204);
    expect((await t.get(`/videolibrary/${library.Id}`)).body.WatermarkVersion).toBe(after.WatermarkVersion);
  });
});

describe('images and the account wall', () => {
  it("answers 404 for an unknown library and for another account's, whatever the body", async () => {
    await upload('watermark', png(8, 8));
    const other = await t.newAccount();
    for (const path of ['watermark', 'live/thumbnail', 'live/watermark']) {
      const url = `/videolibrary/${library.Id}/${path}`;
      expectErrorBody(await t.request('PUT', url, png(8, 8), other.key, { 'content-type': 'image/png' }), 404, url);
      expectErrorBody(await t.request('PUT', url, Buffer.from('not an image'), other.key, { 'content-type': 'image/png' }), 404, url);
      expectErrorBody(await t.get(url, other.key), 404, url);
      expectErrorBody(await t.del(url, undefined, other.key), 404, url);
      expectErrorBody(await t.request('PUT', `/videolibrary/987654/${path}`, png(8, 8), undefined, { 'content-type': 'image/png' }), 404);
    }
    expect((await read('watermark')).statusCode).toBe(200);
    expect((await t.get(`/videolibrary/${library.Id}`)).body.HasWatermark).toBe(true);
  });

  it('lets a read-only key download the images and refuses it the changes', async () => {
    await upload('watermark', png(8, 8));
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key;
    expect((await read('watermark', readOnly)).statusCode).toBe(200);
    expectErrorBody(await upload('watermark', png(9, 9), 'image/png', readOnly), 403);
    expectErrorBody(await t.del(`/videolibrary/${library.Id}/watermark`, undefined, readOnly), 403);
  });
});

describe('images and the files backend', () => {
  it('go with their library: the records at once, the bytes after the grace', async () => {
    await upload('watermark', png(8, 8));
    await upload('live/thumbnail', png(8, 8));
    expect(await blobsOf(library.Id)).toHaveLength(2);
    expect((await t.del(`/videolibrary/${library.Id}`)).status).toBe(204);
    expect(await t.store.docs.list('videoLibraryImage', t.accountId, { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
    t.clock.advance(61_000);
    await t.app.services.fileSweeper.sweepDead();
    expect(await blobsOf(library.Id)).toEqual([]);
  });

  it('are claimed against the orphan sweep, while bytes no image points at are swept', async () => {
    await upload('watermark', png(8, 8));
    const [kept] = await blobsOf(library.Id);
    const stray = `videolibrary-${library.Id}/00000000-0000-4000-8000-000000000001`;
    await t.app.services.files.blobs.write(stray, Readable.from([Buffer.from('left by a crash')]), { maxBytes: 1024 });
    t.clock.advance(2 * 3_600_000);
    await t.app.services.fileSweeper.sweepOrphans();
    expect(await blobsOf(library.Id)).toEqual([kept]);
    expect((await read('watermark')).statusCode).toBe(200);
  });
});
