/**
 * A resumable upload from a page of another origin, in a real browser: the page loads tus-js-client
 * (its browser build) and uploads to the video plane in small chunks with the presigned headers;
 * the cross-origin requests (preflights included) pass, the page reads the upload's URL from
 * `Location`, and the video's source is the bytes the page sent.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presignedSignature } from '../../src/domain/videos/presigned.js';
import { VideoStatus } from '../../src/schemas/video.js';
import { CHROMIUM } from '../setup/chromium.js';
import { createVideo, useVideoEnv } from '../video-api/helpers.js';

const TUS_BUNDLE = readFileSync(new URL('../../node_modules/tus-js-client/dist/tus.min.js', import.meta.url));

const env = useVideoEnv();
/** The page's server and the browser, for the whole file. */
const shared = {} as { page: Server; pageUrl: string; browser: Browser };

beforeAll(async () => {
  // The page's origin: another host name and port than the plane's.
  const page = createServer((req, res) => {
    if (req.url === '/tus.min.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(TUS_BUNDLE);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script src="/tus.min.js"></script><p>upload</p>');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  shared.page = page;
  shared.pageUrl = `http://localhost:${(page.address() as AddressInfo).port}/`;
  shared.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
});

afterAll(async () => {
  await shared.browser?.close();
  await new Promise((resolve) => shared.page?.close(resolve));
});

describe('a resumable upload from a browser page on another origin', () => {
  it('passes CORS and stores the bytes the page sent as the video source', async () => {
    const { library } = env;
    const planeUrl = await env.plane.listen({ host: '127.0.0.1', port: 0 });
    const guid = (await createVideo(env, 'from a page')).guid;
    const expire = Math.floor(env.t.clock.read().getTime() / 1000) + 3600;
    const presigned = {
      AuthorizationSignature: presignedSignature(library.Id, library.ApiKey, expire, guid),
      AuthorizationExpire: String(expire),
      LibraryId: String(library.Id),
      VideoId: guid,
    };
    const bytes = randomBytes(300 * 1024);

    const tab = await shared.browser.newPage();
    await tab.goto(shared.pageUrl);
    const url = await tab.evaluate(
      ({ endpoint, headers, data }) =>
        new Promise<string>((resolve, reject) => {
          const tus = (window as unknown as { tus: { Upload: new (file: Blob, options: object) => { start(): void; url: string } } }).tus;
          const upload = new tus.Upload(new Blob([new Uint8Array(data)]), {
            endpoint,
            headers,
            chunkSize: 64 * 1024,
            retryDelays: null,
            metadata: { filetype: 'video/mp4', title: 'Sent by a page' },
            onSuccess: () => resolve(upload.url),
            onError: (error: Error) => reject(error.message),
          });
          upload.start();
        }),
      { endpoint: `${planeUrl}/tusupload`, headers: presigned, data: [...bytes] },
    );
    expect(url).toMatch(new RegExp(`^${planeUrl}/tusupload/[0-9a-f-]{36}$`));

    const { files, videos } = env.t.app.services;
    const file = await files.find((await videos.keys.find(library.Id))!.zone, `${guid}/original`);
    expect(file && (await files.readBytes(file)).equals(bytes)).toBe(true);
    const video = (await env.call('GET', `/library/${library.Id}/videos/${guid}`)).body;
    expect(video).toMatchObject({ status: VideoStatus.Uploaded, title: 'Sent by a page' });
  }, 60_000);
});
