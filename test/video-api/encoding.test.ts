/**
 * The encoding of an uploaded video, end to end with real ffmpeg: a clip made by ffmpeg's own test
 * sources is uploaded by PUT, encoded by the media runner into the library's storage zone with the
 * platform's layout, and the library's webhook hears every step in order; a file ffmpeg cannot read
 * ends in Error with a reason, never a stuck job.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_STATUS } from '../../src/domain/videos/webhooks.js';
import { findMediaTools } from '../../src/media/binaries.js';
import type { MediaTools } from '../../src/media/types.js';
import { VideoStatus } from '../../src/schemas/video.js';
import { makeClip, makeImage } from '../media/clips.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { useVideoEnv } from './helpers.js';

const env = useVideoEnv();
let tools: MediaTools;
let dir: string;
let receiver: WebhookReceiver;
/** The webhook statuses the library's receiver got, in order. */
const statuses = () => receiver.received.map((r) => (JSON.parse(r.body) as { Status: number }).Status);

beforeAll(async () => {
  tools = await findMediaTools({});
});
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-encoding-'));
  receiver = await startWebhookReceiver();
  const settings = {
    EnabledResolutions: '240p,360p,720p',
    EnableMP4Fallback: true,
    KeepOriginalFiles: false,
    WebhookUrl: receiver.url,
  };
  expect((await env.t.post(`/videolibrary/${env.library.Id}`, settings)).status).toBe(200);
});
afterEach(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

async function upload(bytes: Buffer): Promise<string> {
  const guid = (await env.call('POST', `/library/${env.library.Id}/videos`, { title: 'clip' })).body.guid as string;
  expect((await env.call('PUT', `/library/${env.library.Id}/videos/${guid}`, bytes)).status).toBe(200);
  return guid;
}

async function filesOf(guid: string): Promise<string[]> {
  const found = await env.t.app.services.videos.keys.find(env.library.Id);
  const listed = await env.t.app.services.files.listInKeyOrder(found!.zone, `${guid}/`, undefined, 1000);
  return listed.filter((f) => !f.isDirectory).map((f) => f.path.slice(guid.length + 1));
}

describe('encoding an uploaded video', () => {
  it('makes the renditions the library asks for up to the source, with MP4 fallbacks and artwork, announces each step, and after a resolutions cleanup lists the renditions left', async () => {
    // The 10-second test clip, uploaded by PUT (tus.test.ts uploads it resumably).
    const guid = await upload(readFileSync(makeClip(tools, join(dir, 'clip.mp4'), { width: 640, height: 360, seconds: 10 })));
    await env.t.runJobs();
    await env.t.runJobs();
    const video = (await env.call('GET', `/library/${env.library.Id}/videos/${guid}`)).body;
    expect(video.status).toBe(VideoStatus.Finished);
    expect(video.encodeProgress).toBe(100);
    expect(video.availableResolutions.split(',').sort()).toEqual(['240p', '360p']);
    expect([video.width, video.height, video.length]).toEqual([640, 360, 10]);
    const files = await filesOf(guid);
    for (const name of ['playlist.m3u8', '240p/video.m3u8', '360p/video.m3u8', 'play_240p.mp4', 'play_360p.mp4', 'thumbnail.jpg', 'preview.webp']) {
      expect(files).toContain(name);
    }
    // The source goes once encoded (KeepOriginalFiles off), and nothing of 720p exists: the source is 360p.
    expect(files).not.toContain('original');
    expect(files.some((f) => f.startsWith('720p'))).toBe(false);
    expect(video.storageSize).toBeGreaterThan(0);
    // The webhook jobs queued by the encoding went out on the short runner.
    await env.t.runJobs();
    expect(statuses()).toEqual([
      WEBHOOK_STATUS.Queued,
      WEBHOOK_STATUS.Processing,
      WEBHOOK_STATUS.Encoding,
      WEBHOOK_STATUS.ResolutionFinished,
      WEBHOOK_STATUS.ResolutionFinished,
      WEBHOOK_STATUS.Finished,
    ]);
    const library = (await env.t.get(`/videolibrary/${env.library.Id}`)).body;
    expect(library.VideoCount).toBe(1);
    expect(library.StorageUsage).toBe(video.storageSize);

    // A resolutions cleanup of the same video writes the master playlist again with the renditions left.
    const cleaned = await env.call('POST', `/library/${env.library.Id}/videos/${guid}/resolutions/cleanup?resolutionsToDelete=240p&deleteMp4Files=true`);
    expect(cleaned.status).toBe(200);
    await env.t.runJobs();
    const found = await env.t.app.services.videos.keys.find(env.library.Id);
    const playlist = await env.t.app.services.files.find(found!.zone, `${guid}/playlist.m3u8`);
    const text = (await env.t.app.services.files.readBytes(playlist!)).toString('utf8');
    expect(text.split('\n').filter((line) => line !== '' && !line.startsWith('#'))).toEqual(['360p/video.m3u8']);
    const after = (await env.call('GET', `/library/${env.library.Id}/videos/${guid}`)).body;
    expect([after.status, after.availableResolutions]).toEqual([VideoStatus.Finished, '360p']);
    expect((await filesOf(guid)).some((f) => f.startsWith('240p') || f === 'play_240p.mp4')).toBe(false);
  }, 60_000);

  it('fetches a video from an address with the headers given, following a redirect, then encodes it; a refused fetch is UploadFailed with the reason', async () => {
    const clip = readFileSync(makeClip(tools, join(dir, 'clip.mp4'), { width: 426, height: 240, seconds: 2 }));
    const seen: { url: string; authorization: string | undefined }[] = [];
    const origin = createServer((req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      if (req.url === '/moved') return res.writeHead(302, { location: '/clip.mp4' }).end();
      if (req.headers.authorization !== 'Bearer origin-token') return res.writeHead(403).end();
      res.writeHead(200, { 'content-type': 'video/mp4' }).end(clip);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
      const fetched = await env.call('POST', `/library/${env.library.Id}/videos/fetch`, {
        url: `${base}/moved`,
        headers: { Authorization: 'Bearer origin-token' },
      });
      expect(fetched.status).toBe(200);
      // The fetch, then the encoding it queued.
      await env.t.runJobs();
      await env.t.runJobs();
      const [video] = (await env.call('GET', `/library/${env.library.Id}/videos`)).body.items;
      expect([video.status, video.availableResolutions]).toEqual([VideoStatus.Finished, '240p']);
      // Same host: the redirect keeps the headers.
      expect(seen).toEqual([
        { url: '/moved', authorization: 'Bearer origin-token' },
        { url: '/clip.mp4', authorization: 'Bearer origin-token' },
      ]);
      // Without the header the origin wants: 403.
      expect((await env.call('POST', `/library/${env.library.Id}/videos/fetch`, { url: `${base}/clip.mp4` })).status).toBe(200);
      await env.t.runJobs();
      const videos = (await env.call('GET', `/library/${env.library.Id}/videos`)).body.items as {
        status: number;
        transcodingMessages: { message: string }[];
      }[];
      const refused = videos.find((v) => v.status === VideoStatus.UploadFailed);
      expect(refused?.transcodingMessages.at(-1)?.message).toContain('answered 403');
    } finally {
      await new Promise((resolve) => origin.close(resolve));
    }
  }, 60_000);

  it('sets a thumbnail fetched from an address, following a redirect', async () => {
    const image = readFileSync(makeImage(tools, join(dir, 'thumb.png')));
    const origin = createServer((req, res) => {
      if (req.url === '/moved') return res.writeHead(301, { location: '/thumb.png' }).end();
      res.writeHead(200, { 'content-type': 'image/png' }).end(image);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    try {
      const guid = (await env.call('POST', `/library/${env.library.Id}/videos`, { title: 'clip' })).body.guid as string;
      const address = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/moved`;
      const set = await env.call('POST', `/library/${env.library.Id}/videos/${guid}/thumbnail?thumbnailUrl=${encodeURIComponent(address)}`);
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const video = (await env.call('GET', `/library/${env.library.Id}/videos/${guid}`)).body;
      expect(await filesOf(guid)).toContain(video.thumbnailFileName);
    } finally {
      await new Promise((resolve) => origin.close(resolve));
    }
  });

  it('ends in Error with a reason for a file ffmpeg cannot read, and announces Failed', async () => {
    const guid = await upload(Buffer.from('this is not a video, only some text'.repeat(100)));
    await env.t.runJobs();
    await env.t.runJobs();
    const video = (await env.call('GET', `/library/${env.library.Id}/videos/${guid}`)).body;
    expect(video.status).toBe(VideoStatus.Error);
    expect(video.transcodingMessages.at(-1).message).toMatch(/./);
    expect(statuses()).toEqual([WEBHOOK_STATUS.Queued, WEBHOOK_STATUS.Processing, WEBHOOK_STATUS.Failed]);
  }, 30_000);
});
