/**
 * Uploads by PUT over a real socket: a few MB streamed into the library's storage zone (memory
 * stays flat), the video marked Uploaded and its encoding queued; an upload cut off halfway leaves
 * no file and marks the video UploadFailed; a second upload, an empty one and the read-only key
 * are refused.
 */
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../helpers/app.js';
import { createVideo, useVideoEnv } from './helpers.js';

const MB = 1024 * 1024;

function put(url: string, key: string, chunks: AsyncIterable<Buffer>, length: number, cut = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'PUT', headers: { accesskey: key, 'content-length': String(length), 'content-type': 'video/mp4' } },
      (response) => {
        let body = '';
        response.on('data', (c: Buffer) => (body += c.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', (error) => (cut ? resolve({ status: 0, body: String(error) }) : reject(error)));
    void (async () => {
      for await (const chunk of chunks) if (!request.write(chunk)) await new Promise((r) => request.once('drain', r));
      if (cut) request.destroy();
      else request.end();
    })();
  });
}

async function* pattern(bytes: number, chunk = 64 * 1024): AsyncIterable<Buffer> {
  const block = Buffer.alloc(chunk, 0x5a);
  for (let sent = 0; sent < bytes; sent += chunk) yield block.subarray(0, Math.min(chunk, bytes - sent));
}

describe('upload by PUT', () => {
  const env = useVideoEnv();
  let url = '';
  beforeEach(async () => {
    url = await env.plane.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await env.t.store.jobs.cancel('video.encode', () => true);
  });

  it('streams 16 MB into {guid}/original with flat memory, marks the video Uploaded and queues its encoding', async () => {
    const video = await createVideo(env, 'Big');
    const size = 16 * MB;
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage();
    const held = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers - before.heapUsed - before.arrayBuffers;
    };
    let peak = 0;
    // Garbage is collected only when a sample is over the limit: what is live then is what is held.
    const sampler = setInterval(() => {
      if (held() >= 12 * MB) gc();
      peak = Math.max(peak, held());
    }, 5);
    const res = await put(`${url}/library/${env.library.Id}/videos/${video.guid}`, env.library.ApiKey, pattern(size), size);
    clearInterval(sampler);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ success: true, message: 'The video was uploaded.', statusCode: 200 });
    // Held whole, the body alone would be 16 MB over the baseline.
    expect(peak).toBeLessThan(12 * MB);
    const file = await env.t.app.services.files.find({ zoneId: String(env.library.StorageZoneId) }, `${video.guid}/original`);
    expect(file?.size).toBe(size);
    const read = (await env.call('GET', `/library/${env.library.Id}/videos/${video.guid}`)).body;
    expect(read).toMatchObject({ status: 1, storageSize: size, hasOriginal: true });
    expect(read.originalHash).toMatch(/^[0-9a-f]{64}$/);
    const queued: unknown[] = [];
    expect(await env.t.store.jobs.cancel('video.encode', (p) => queued.push(p) > 0)).toBe(1);
    expect(queued).toEqual([{ libraryId: env.library.Id, guid: video.guid }]);
    // The source is there: a second upload is refused.
    expectErrorBody(await env.call('PUT', `/library/${env.library.Id}/videos/${video.guid}`, Buffer.alloc(10)), 400);
  });

  it('an upload cut off halfway leaves no file and marks the video UploadFailed with the reason', async () => {
    const video = await createVideo(env, 'Cut');
    const res = await put(`${url}/library/${env.library.Id}/videos/${video.guid}`, env.library.ApiKey, pattern(2 * MB), 8 * MB, true);
    expect(res.status).toBe(0);
    const path = `/library/${env.library.Id}/videos/${video.guid}`;
    let read = (await env.call('GET', path)).body;
    for (let i = 0; i < 200 && read.status !== 6; i++) {
      await new Promise((r) => setTimeout(r, 25));
      read = (await env.call('GET', path)).body;
    }
    expect(read.status).toBe(6);
    expect(read.transcodingMessages.at(-1)).toMatchObject({ level: 3 });
    expect(read.transcodingMessages.at(-1).message).toMatch(/^The upload failed/);
    expect(await env.t.app.services.files.find({ zoneId: String(env.library.StorageZoneId) }, `${video.guid}/original`)).toBeUndefined();
    expect(await env.t.store.jobs.cancel('video.encode', () => true)).toBe(0);
    // The video can be uploaded again.
    const again = await put(`${url}${path}`, env.library.ApiKey, pattern(1000), 1000);
    expect(again.status).toBe(200);
  });

  it('refuses an empty body, an unknown video, the read-only key and a wrong key, before reading the body', async () => {
    const video = await createVideo(env, 'Refused');
    const path = `/library/${env.library.Id}/videos/${video.guid}`;
    expectErrorBody(await env.call('PUT', path, Buffer.alloc(0)), 400);
    expectErrorBody(await env.call('PUT', `/library/${env.library.Id}/videos/${crypto.randomUUID()}`, Buffer.alloc(10)), 404);
    const readOnly = await put(`${url}${path}`, env.library.ReadOnlyApiKey, pattern(1000), 1000);
    expect(readOnly.status).toBe(403);
    const wrong = await put(`${url}${path}`, 'not-a-key', pattern(1000), 1000);
    expect(wrong.status).toBe(401);
    expect((await env.call('GET', path)).body.status).toBe(0);
  });
});
