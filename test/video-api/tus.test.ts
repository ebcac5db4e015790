/**
 * Resumable uploads over tus, driven by the real tus-js-client over a real socket: a 10-second
 * clip made by ffmpeg is uploaded in small chunks, cut off mid-way, resumed from its URL by a new
 * client (on the same app, and on a second app over the same store), and reaches Finished with the
 * stored source equal to the clip and the webhooks in order; two instances racing for one offset
 * keep one piece; the presigned signature is checked
 * on every request; bad metadata, a length over the limit and another library's video are refused
 * with the video plane's error body; an upload left unfinished goes at its expiry.
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type HttpRequest, Upload } from 'tus-js-client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { presignedSignature } from '../../src/domain/videos/presigned.js';
import { RESUMABLE_UPLOAD_LIFETIME_MS } from '../../src/domain/videos/resumable-uploads.js';
import { WEBHOOK_STATUS } from '../../src/domain/videos/webhooks.js';
import { findMediaTools } from '../../src/media/binaries.js';
import { buildVideoApp } from '../../src/planes/video/app.js';
import { VideoStatus } from '../../src/schemas/video.js';
import type { Store } from '../../src/store/types.js';
import { buildApiOver, expectErrorBody } from '../helpers/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { within } from '../helpers/within.js';
import { makeClip } from '../media/clips.js';
import { createVideo, type Library, useVideoEnv } from './helpers.js';

const env = useVideoEnv();
let base = '';
let clip: Buffer;
let dir: string;
let receiver: WebhookReceiver;
const CHUNK = 128 * 1024;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-tus-'));
  clip = readFileSync(makeClip(await findMediaTools({}), join(dir, 'clip.mp4'), { width: 426, height: 240, seconds: 10 }));
  return () => rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  base = await env.plane.listen({ host: '127.0.0.1', port: 0 });
  receiver = await startWebhookReceiver();
  const settings = { EnabledResolutions: '240p', EnableMP4Fallback: false, KeepOriginalFiles: true, WebhookUrl: receiver.url };
  expect((await env.t.post(`/videolibrary/${env.library.Id}`, settings)).status).toBe(200);
});
afterEach(async () => {
  await receiver.close();
});

/** UNIX seconds on the app's clock. */
const nowSeconds = () => Math.floor(env.t.clock.read().getTime() / 1000);

function presigned(library: Library, videoId: string, options: { expire?: number; key?: string } = {}): Record<string, string> {
  const expire = options.expire ?? nowSeconds() + 3600;
  return {
    AuthorizationSignature: presignedSignature(library.Id, options.key ?? library.ApiKey, expire, videoId),
    AuthorizationExpire: String(expire),
    LibraryId: String(library.Id),
    VideoId: videoId,
  };
}

interface Run {
  upload: Upload;
  done: Promise<void>;
}

/** A tus-js-client upload of `body` (resumed from `uploadUrl` when given), with no retries: a failure is the test's to see. */
function startUpload(
  endpoint: string,
  body: Buffer,
  headers: Record<string, string>,
  options: { uploadUrl?: string; metadata?: Record<string, string>; onChunk?: (accepted: number, upload: Upload) => void } = {},
): Run {
  let upload!: Upload;
  const done = new Promise<void>((resolve, reject) => {
    upload = new Upload(body, {
      endpoint: `${endpoint}/tusupload`,
      ...(options.uploadUrl ? { uploadUrl: options.uploadUrl } : {}),
      chunkSize: CHUNK,
      retryDelays: null,
      headers,
      metadata: options.metadata ?? { filetype: 'video/mp4', title: 'Resumed' },
      onChunkComplete: (_size, accepted) => options.onChunk?.(accepted, upload),
      onSuccess: () => resolve(),
      onError: reject,
    });
  });
  upload.start();
  return { upload, done };
}

/** Uploads part of `body`, then aborts the client mid-way (its request in flight cut); answers the upload's URL. */
async function interruptedUpload(endpoint: string, guid: string, after: number): Promise<string> {
  let aborted!: () => void;
  const stopped = new Promise<void>((resolve) => (aborted = resolve));
  const run = startUpload(endpoint, clip, presigned(env.library, guid), {
    onChunk: (accepted, upload) => {
      if (accepted >= after) void upload.abort().then(aborted);
    },
  });
  await Promise.race([stopped, run.done.then(() => Promise.reject(new Error('the upload finished before it was interrupted')))]);
  expect(run.upload.url).toMatch(/\/tusupload\/[0-9a-f-]{36}$/);
  return run.upload.url!;
}

/** The upload's offset once the request the client cut off has ended on the server (what it kept of it is recorded). */
async function settledOffset(path: string, headers: Record<string, string>): Promise<number> {
  let last = -1;
  await within(5000, async () => {
    const offset = Number((await tusRequest('HEAD', path, headers)).headers['upload-offset']);
    await new Promise((r) => setTimeout(r, 100));
    const settled = offset === last;
    last = offset;
    return settled;
  });
  return last;
}

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** A raw tus request to the plane, over its socket (an injected request cannot take the tus server's way of ending an answer). */
async function tusRequest(method: string, path: string, headers: Record<string, string>, body?: Buffer, version: string | null = '1.0.0'): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(version ? { 'tus-resumable': version } : {}), ...headers },
    ...(body ? { body: new Uint8Array(body) } : {}),
  });
  return { statusCode: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

const pathOf = (url: string) => new URL(url).pathname;
const webhookStatuses = () => receiver.received.map((r) => (JSON.parse(r.body) as { Status: number }).Status);

async function storedOriginal(guid: string): Promise<Buffer | undefined> {
  const found = await env.t.app.services.videos.keys.find(env.library.Id);
  const file = await env.t.app.services.files.find(found!.zone, `${guid}/original`);
  return file && env.t.app.services.files.readBytes(file);
}

describe('resumable uploads (tus)', () => {
  it('an upload cut off mid-way and resumed from its URL by a new client reaches Finished, its source the clip byte for byte', async () => {
    const video = await createVideo(env, 'Untitled');
    const url = await interruptedUpload(base, video.guid, 3 * CHUNK);
    // The offset stored is what the server kept: at least the chunks acknowledged, never past the clip.
    const offset = await settledOffset(pathOf(url), presigned(env.library, video.guid));
    const head = await tusRequest('HEAD', pathOf(url), presigned(env.library, video.guid));
    expect(head.statusCode).toBe(200);
    expect(offset).toBeGreaterThanOrEqual(3 * CHUNK);
    expect(offset).toBeLessThan(clip.length);
    expect(head.headers['upload-length']).toBe(String(clip.length));
    expect(head.headers['upload-expires']).toBe(new Date(env.t.clock.read().getTime() + RESUMABLE_UPLOAD_LIFETIME_MS).toUTCString());
    expect((await env.call('GET', `/library/${env.library.Id}/videos/${video.guid}`)).body).toMatchObject({ status: VideoStatus.Created, title: 'Resumed' });

    const sent: string[] = [];
    const resumed = startUpload(base, clip, presigned(env.library, video.guid), { uploadUrl: url });
    resumed.upload.options.onBeforeRequest = (req: HttpRequest) => void sent.push(`${req.getMethod()} ${req.getHeader('Upload-Offset') ?? ''}`);
    await resumed.done;
    // The new client asked where the upload was, and went on from there.
    expect(sent[0]).toBe('HEAD ');
    expect(sent[1]).toBe(`PATCH ${offset}`);
    expect(resumed.upload.url).toBe(url);
    expect((await storedOriginal(video.guid))?.equals(clip)).toBe(true);
    const uploaded = (await env.call('GET', `/library/${env.library.Id}/videos/${video.guid}`)).body;
    expect(uploaded).toMatchObject({ status: VideoStatus.Uploaded, hasOriginal: true, storageSize: clip.length });
    expect(uploaded.originalHash).toBe(createHash('sha256').update(clip).digest('hex'));

    await env.t.runJobs();
    await env.t.runJobs();
    const finished = (await env.call('GET', `/library/${env.library.Id}/videos/${video.guid}`)).body;
    expect(finished).toMatchObject({ status: VideoStatus.Finished, availableResolutions: '240p', length: 10, width: 426, height: 240 });
    await within(5000, async () => {
      await env.t.runJobs();
      return webhookStatuses().includes(WEBHOOK_STATUS.Finished);
    });
    expect(webhookStatuses()).toEqual([
      WEBHOOK_STATUS.PresignedUploadStarted,
      WEBHOOK_STATUS.PresignedUploadFinished,
      WEBHOOK_STATUS.Queued,
      WEBHOOK_STATUS.Processing,
      WEBHOOK_STATUS.Encoding,
      WEBHOOK_STATUS.ResolutionFinished,
      WEBHOOK_STATUS.Finished,
    ]);
    for (const { headers, body } of receiver.received) {
      expect(headers['x-bunnystream-signature']).toBe(createHmac('sha256', env.library.ReadOnlyApiKey).update(body).digest('hex'));
      expect(JSON.parse(body)).toMatchObject({ VideoLibraryId: env.library.Id, VideoGuid: video.guid });
    }
    // Done: HEAD says so, and a new upload for the video is refused.
    const after = await tusRequest('HEAD', pathOf(url), presigned(env.library, video.guid));
    expect(after.headers['upload-offset']).toBe(String(clip.length));
    const again = await tusRequest('POST', '/tusupload', {
      ...presigned(env.library, video.guid),
      'upload-length': '10',
      'upload-metadata': metadata({ filetype: 'video/mp4', title: 'x' }),
    });
    expectErrorBody(parsed(again), 400);
  }, 60_000);

  it('is resumed on a second app over the same store and files, and HEAD gives the stored offset after a restart', async () => {
    const video = await createVideo(env, 'Elsewhere');
    const url = await interruptedUpload(base, video.guid, 2 * CHUNK);
    const offset = await settledOffset(pathOf(url), presigned(env.library, video.guid));

    // A restart: the same store and files opened again, a new video plane over them.
    await env.plane.close();
    await env.t.restart();
    env.plane = await buildVideoApp({ services: env.t.app.services, config: env.t.config });
    base = await env.plane.listen({ host: '127.0.0.1', port: 0 });
    const head = await tusRequest('HEAD', pathOf(url), presigned(env.library, video.guid));
    expect([head.statusCode, Number(head.headers['upload-offset'])]).toEqual([200, offset]);

    // Another instance: a store of its own on the same data, its own services and plane.
    let other: { store: Store; api: FastifyInstance; plane: FastifyInstance } | undefined;
    try {
      const store = await env.t.openStore();
      const api = await buildApiOver({ config: env.t.config, store, masterKey: env.t.masterKey, clock: env.t.clock.read });
      other = { store, api, plane: await buildVideoApp({ services: api.services, config: env.t.config }) };
      const otherBase = await other.plane.listen({ host: '127.0.0.1', port: 0 });
      const resumed = startUpload(otherBase, clip, presigned(env.library, video.guid), { uploadUrl: `${otherBase}${pathOf(url)}` });
      await resumed.done;
    } finally {
      await other?.plane.close();
      await other?.api.close();
      await other?.store.close();
    }
    expect((await storedOriginal(video.guid))?.equals(clip)).toBe(true);
    // The other instance had none of the earlier pieces in hand: it read them again for the digest.
    expect((await env.call('GET', `/library/${env.library.Id}/videos/${video.guid}`)).body).toMatchObject({
      status: VideoStatus.Uploaded,
      originalHash: createHash('sha256').update(clip).digest('hex'),
    });
  }, 60_000);

  it('two pieces for the same offset sent at once to two instances: one is kept, the other refused with nothing left of it', async () => {
    const video = await createVideo(env, 'Raced');
    const headers = presigned(env.library, video.guid);
    const made = await tusRequest('POST', '/tusupload', {
      ...headers,
      'upload-length': String(clip.length),
      'upload-metadata': metadata({ filetype: 'video/mp4', title: 't' }),
    });
    const path = pathOf(made.headers['location']!);
    const store = await env.t.openStore();
    const api = await buildApiOver({ config: env.t.config, store, masterKey: env.t.masterKey, clock: env.t.clock.read });
    const plane = await buildVideoApp({ services: api.services, config: env.t.config });
    try {
      const otherBase = await plane.listen({ host: '127.0.0.1', port: 0 });
      const patch = (at: string, bytes: Buffer) =>
        fetch(`${at}${path}`, {
          method: 'PATCH',
          headers: { ...headers, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          body: new Uint8Array(bytes),
        }).then((r) => r.status);
      const statuses = await Promise.all([patch(base, clip.subarray(0, 400_000)), patch(otherBase, clip.subarray(0, 300_000))]);
      expect([...statuses].sort()).toEqual([204, 409]);
      const kept = statuses[0] === 204 ? 400_000 : 300_000;
      expect((await tusRequest('HEAD', path, headers)).headers['upload-offset']).toBe(String(kept));
      const zone = (await env.t.app.services.videos.keys.find(env.library.Id))!.zone;
      const blobs: string[] = [];
      for await (const blob of env.t.app.services.files.blobs.list(`${zone.zoneId}/`)) blobs.push(blob.key);
      expect(blobs).toHaveLength(1);
    } finally {
      await plane.close();
      await api.close();
      await store.close();
    }
  });

  it('refuses a missing, wrong, expired or other library signature with 401 on every request, writing nothing', async () => {
    const video = await createVideo(env, 'Guarded');
    const other = await env.createLibrary('Other');
    const otherVideo = (await env.call('POST', `/library/${other.Id}/videos`, { title: 'theirs' }, other.ApiKey)).body.guid as string;
    const create = (headers: Record<string, string>) =>
      tusRequest('POST', '/tusupload', {
        ...headers,
        'upload-length': String(clip.length),
        'upload-metadata': metadata({ filetype: 'video/mp4', title: 't' }),
      });
    const good = presigned(env.library, video.guid);
    const refusals: Record<string, string>[] = [
      {},
      { ...good, AuthorizationSignature: '0'.repeat(64) },
      { ...good, AuthorizationSignature: 'not-hex' },
      presigned(env.library, video.guid, { expire: nowSeconds() - 1 }),
      presigned(env.library, video.guid, { key: env.library.ReadOnlyApiKey }),
      // Signed by the other library's key for its own video, presented as this library's.
      { ...presigned(other, otherVideo), LibraryId: String(env.library.Id) },
      { ...good, VideoId: otherVideo },
    ];
    for (const headers of refusals) {
      const res = await create(headers);
      expectErrorBody(parsed(res), 401);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    // A valid upload, then the same refusals on its other requests.
    const made = await create(good);
    expect(made.statusCode).toBe(201);
    const path = pathOf(String(made.headers['location']));
    for (const headers of refusals.slice(1)) {
      expect((await tusRequest('HEAD', path, headers)).statusCode).toBe(401);
      const patch = await tusRequest(
        'PATCH',
        path,
        { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        clip.subarray(0, 1000),
      );
      expectErrorBody(parsed(patch), 401);
      expectErrorBody(parsed(await tusRequest('DELETE', path, headers)), 401);
    }
    // A signature for another video of the same library does not reach this upload.
    const sibling = await createVideo(env, 'Sibling');
    expectErrorBody(
      parsed(
        await tusRequest(
          'PATCH',
          path,
          { ...presigned(env.library, sibling.guid), 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          clip.subarray(0, 10),
        ),
      ),
      404,
    );
    const head = await tusRequest('HEAD', path, good);
    expect(head.headers['upload-offset']).toBe('0');
    expect(await storedOriginal(video.guid)).toBeUndefined();
    // The browser's preflight needs no signature, and allows the presigned headers.
    const preflight = await tusRequest('OPTIONS', '/tusupload', { origin: 'https://app.example', 'access-control-request-method': 'POST' }, undefined, null);
    expect(preflight.statusCode).toBe(204);
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorizationsignature');
    for (const name of ['authorizationexpire', 'libraryid', 'videoid', 'upload-metadata', 'tus-resumable']) {
      expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain(name);
    }
    expect(String(made.headers['access-control-expose-headers'])).toMatch(/Location.*Upload-Offset/);
  });

  it("refuses bad metadata, a deferred or too large length, an unknown collection and another library's video with a 400-class error body", async () => {
    const video = await createVideo(env, 'Checked');
    const other = await env.createLibrary('Other');
    const otherVideo = (await env.call('POST', `/library/${other.Id}/videos`, { title: 'theirs' }, other.ApiKey)).body.guid as string;
    const good = presigned(env.library, video.guid);
    const create = (meta: Record<string, string> | string, extra: Record<string, string> = {}, headers = good) =>
      tusRequest('POST', '/tusupload', { ...headers, 'upload-length': '1000', 'upload-metadata': typeof meta === 'string' ? meta : metadata(meta), ...extra });
    expectErrorBody(parsed(await create({ title: 'no type' })), 400);
    expectErrorBody(parsed(await create({ filetype: 'video/mp4' })), 400);
    expectErrorBody(parsed(await create('title !!!')), 400);
    expectErrorBody(parsed(await create({ filetype: 'video/mp4', title: 't', thumbnailTime: 'soon' })), 400);
    expectErrorBody(parsed(await create({ filetype: 'video/mp4', title: 't', collection: crypto.randomUUID() })), 400);
    const deferred = await tusRequest('POST', '/tusupload', {
      ...good,
      'upload-defer-length': '1',
      'upload-metadata': metadata({ filetype: 'video/mp4', title: 't' }),
    });
    expectErrorBody(parsed(deferred), 400);
    expectErrorBody(parsed(await create({ filetype: 'video/mp4', title: 't' }, { 'upload-length': String(env.t.config.maxFileBytes + 1) })), 413);
    // Signed with this library's key for a video of another library: there is no such video here.
    expectErrorBody(parsed(await create({ filetype: 'video/mp4', title: 't' }, {}, presigned(env.library, otherVideo))), 404);
    expect(receiver.received).toEqual([]);

    // Good metadata sets the title, the collection and the thumbnail time.
    const collection = (await env.call('POST', `/library/${env.library.Id}/collections`, { name: 'Shelf' })).body.guid as string;
    const made = await create({ filetype: 'video/mp4', title: 'Named by tus', collection, thumbnailTime: '1500' });
    expect(made.statusCode).toBe(201);
    expect((await env.call('GET', `/library/${env.library.Id}/videos/${video.guid}`)).body).toMatchObject({ title: 'Named by tus', collectionId: collection });
    const stored = await env.t.app.services.videos.find({ libraryId: env.library.Id, accountId: env.t.accountId }, video.guid);
    expect(stored.doc.thumbnailTime).toBe(1500);
    // A body past the Upload-Length is refused, and the offset stays.
    const path = pathOf(String(made.headers['location']));
    const tooMuch = await tusRequest('PATCH', path, { ...good, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(1001));
    expect(tooMuch.statusCode).toBe(413);
    expect((await tusRequest('HEAD', path, good)).headers['upload-offset']).toBe('0');
    // A PATCH at the wrong offset is a conflict.
    const wrong = await tusRequest('PATCH', path, { ...good, 'upload-offset': '5', 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(10));
    expect(wrong.statusCode).toBe(409);
  });

  it('an upload whose last byte was stored by a process that died before telling the video is told by the check a minute later', async () => {
    const video = await createVideo(env, 'Orphaned');
    await startUpload(base, clip.subarray(0, 5000), presigned(env.library, video.guid)).done;
    // The state such a death leaves: the source committed, the upload finished, the video never told.
    const store = env.t.store;
    const [upload] = (await store.docs.list<{ announced?: boolean }>('videoUpload', env.t.accountId, { offset: 0, limit: 10, linkId: video.guid })).items;
    expect(upload?.doc.announced).toBe(true);
    expect(
      await store.docs.update('videoUpload', env.t.accountId, {
        id: upload!.id,
        version: upload!.version,
        parentId: String(env.library.Id),
        linkId: video.guid,
        doc: { ...upload!.doc, announced: false },
      }),
    ).toBe(true);
    const videos = env.t.app.services.videos.videos;
    const stored = await videos.get(store, env.t.accountId, video.guid);
    await videos.update(store, env.t.accountId, stored, { ...stored.doc, status: VideoStatus.Created, hasOriginal: false });
    await store.jobs.cancel('video.encode', () => true);

    // The short jobs only: the encode it queues stays queued, to be counted.
    const runChecks = async () => {
      env.t.clock.advance(60_000);
      await env.t.app.services.jobs.runDue();
    };
    await runChecks();
    expect((await env.call('GET', `/library/${env.library.Id}/videos/${video.guid}`)).body).toMatchObject({ status: VideoStatus.Uploaded, hasOriginal: true });
    expect(await store.jobs.cancel('video.encode', () => true)).toBe(1);
    // Told once: the check finds it told now.
    await runChecks();
    expect(await store.jobs.cancel('video.encode', () => true)).toBe(0);
  });

  it('a terminated upload and an expired one are removed with their pieces, announced as PresignedUploadFailed; the video can be uploaded again', async () => {
    const video = await createVideo(env, 'Abandoned');
    const url = await interruptedUpload(base, video.guid, 2 * CHUNK);
    const headers = presigned(env.library, video.guid, { expire: nowSeconds() + 3 * 86_400 });
    expect((await tusRequest('DELETE', pathOf(url), headers)).statusCode).toBe(204);
    expect((await tusRequest('HEAD', pathOf(url), headers)).statusCode).toBe(404);

    const second = await interruptedUpload(base, video.guid, 2 * CHUNK);
    const zone = (await env.t.app.services.videos.keys.find(env.library.Id))!.zone;
    const partsOf = async () => {
      const keys: string[] = [];
      for await (const blob of env.t.app.services.files.blobs.list(`${zone.zoneId}/`)) keys.push(blob.key);
      return keys;
    };
    expect((await partsOf()).length).toBeGreaterThan(0);
    // A day later the expiry job removes it; its pieces go once their grace is over.
    await env.t.runJobs(RESUMABLE_UPLOAD_LIFETIME_MS + 1000);
    expect((await tusRequest('HEAD', pathOf(second), headers)).statusCode).toBe(404);
    env.t.clock.advance(120_000);
    await env.t.app.services.fileSweeper.sweepDead();
    expect(await partsOf()).toEqual([]);
    await within(5000, async () => {
      await env.t.runJobs();
      return webhookStatuses().filter((s) => s === WEBHOOK_STATUS.PresignedUploadFailed).length === 2;
    });
    expect(webhookStatuses()).toEqual([
      WEBHOOK_STATUS.PresignedUploadStarted,
      WEBHOOK_STATUS.PresignedUploadFailed,
      WEBHOOK_STATUS.PresignedUploadStarted,
      WEBHOOK_STATUS.PresignedUploadFailed,
    ]);
    expect((await env.call('GET', `/library/${env.library.Id}/videos/${video.guid}`)).body.status).toBe(VideoStatus.Created);
    await startUpload(base, clip, presigned(env.library, video.guid, { expire: nowSeconds() + 3600 })).done;
    expect((await storedOriginal(video.guid))?.equals(clip)).toBe(true);
  }, 30_000);
});

/** An Upload-Metadata header: keys with their values in base64. */
function metadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

/** An inject answer as the error-body helper reads it. */
function parsed(res: Answer) {
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : {}, headers: res.headers };
}
