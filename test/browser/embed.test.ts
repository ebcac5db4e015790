/**
 * The embed page in a real browser: a 10-second clip made by ffmpeg is uploaded and really encoded,
 * the video plane and the edge plane listen on loopback, and Debian's Chromium resolves the
 * library's pull zone host to 127.0.0.1 (`--host-resolver-rules`), reaching the edge on the port
 * EDGEPLANE_PLAYBACK_URL names. The page loads, hls.js plays the playlist through the edge (H.264
 * in Media Source Extensions), and the video element's currentTime advances; without Media Source
 * Extensions Chromium's own HLS plays it, without HLS too the MP4 fallback. With the embed token
 * and the pull zone's token both on, an unsigned or expired address is refused and a signed one
 * plays, through the directory token the page signs for the player.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedToken } from '../../src/domain/videos/embed-token.js';
import { findMediaTools } from '../../src/media/binaries.js';
import { buildVideoApp } from '../../src/planes/video/app.js';
import { VideoStatus } from '../../src/schemas/video.js';
import { createTestApp, type TestContext, TestClock } from '../helpers/app.js';
import { type EdgePlane, startEdgePlane } from '../helpers/edge-plane.js';
import { freePort } from '../helpers/oci-registry.js';
import { makeClip } from '../media/clips.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../setup/chromium.js';

let dir: string;
let t: TestContext;
let plane: FastifyInstance;
let videoOrigin: string;
let edge: EdgePlane;
let browser: Browser;
let library: { Id: number; ApiKey: string; PullZoneId: number };
let guid: string;
let zoneHost: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-embed-browser-'));
  const edgePort = await freePort();
  // The edge checks token expiry on the real clock: the services run on it too.
  t = await createTestApp({ playbackUrl: `http://{host}:${edgePort}` }, { clock: new TestClock(Date.now()) });
  plane = await buildVideoApp({ services: t.app.services, config: t.config });
  videoOrigin = await plane.listen({ port: 0, host: '127.0.0.1' });
  edge = await startEdgePlane(t, { port: edgePort });

  library = (await t.post('/videolibrary', { Name: 'Embedded', EnabledResolutions: '240p', EnableMP4Fallback: true })).body;
  const headers = { accesskey: library.ApiKey, 'content-type': 'application/json' };
  const created = await plane.inject({ method: 'POST', url: `/library/${library.Id}/videos`, headers, payload: JSON.stringify({ title: 'Test clip' }) });
  guid = created.json().guid;
  const clip = makeClip(await findMediaTools({}), join(dir, 'clip.mp4'), { width: 320, height: 180, seconds: 4 });
  const uploaded = await plane.inject({
    method: 'PUT',
    url: `/library/${library.Id}/videos/${guid}`,
    headers: { accesskey: library.ApiKey },
    payload: readFileSync(clip),
  });
  expect(uploaded.statusCode).toBe(200);
  await t.runJobs();
  const video = (await plane.inject({ method: 'GET', url: `/library/${library.Id}/videos/${guid}`, headers })).json();
  expect([video.status, video.availableResolutions, video.length]).toEqual([VideoStatus.Finished, '240p', 4]);
  zoneHost = (await t.get(`/pullzone/${library.PullZoneId}`)).body.Hostnames[0].Value;

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP *.${t.config.cdnDomain} 127.0.0.1`, '--autoplay-policy=no-user-gesture-required'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await edge?.close();
  await plane?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Played {
  engine: string;
  currentTime: number;
  videoWidth: number;
  decodedFrames: number;
}

/** Opens the embed address and waits until the video has played past 1 s (30 frames a second); what the page reports, and every address it asked the edge for. */
async function playIn(page: Page, query: string): Promise<{ played: Played; fromEdge: string[]; problems: string[] }> {
  const fromEdge: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname === zoneHost) fromEdge.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  const response = await page.goto(`${videoOrigin}/embed/${library.Id}/${guid}${query}`);
  expect(response?.status()).toBe(200);
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, undefined, { timeout: 40_000 });
  const played = await page.evaluate(() => {
    const video = document.querySelector('video')!;
    return {
      engine: document.getElementById('player')!.dataset['engine'] ?? '',
      currentTime: video.currentTime,
      videoWidth: video.videoWidth,
      decodedFrames: video.getVideoPlaybackQuality().totalVideoFrames,
    };
  });
  return { played, fromEdge, problems };
}

describe('the embed page in Chromium', () => {
  it('plays the encoded video through the edge with hls.js: currentTime advances, frames are decoded', async () => {
    const page = await browser.newPage();
    const { played, fromEdge, problems } = await playIn(page, '?autoplay=true&muted=true');
    expect(played.engine).toBe('hls.js');
    expect(played.currentTime).toBeGreaterThan(1);
    expect(played.videoWidth).toBe(320);
    expect(played.decodedFrames).toBeGreaterThan(20);
    const paths = fromEdge.map((url) => new URL(url).pathname);
    expect(paths).toContain(`/${guid}/playlist.m3u8`);
    expect(paths).toContain(`/${guid}/240p/video.m3u8`);
    expect(paths.some((p) => /^\/[0-9a-f-]{36}\/240p\/video\d+\.ts$/.test(p))).toBe(true);
    expect(new URL(fromEdge[0]!).port).toBe(String(edge.port));
    // No policy violation, no script error.
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('without Media Source Extensions plays the playlist natively (Chromium has HLS of its own), without HLS at all the MP4 fallback', async () => {
    const engines: Record<string, string> = {};
    for (const without of ['mse', 'hls'] as const) {
      const context = await browser.newContext();
      await context.addInitScript((what) => {
        // As a browser without them: hls.js sees no MediaSource; the element plays no HLS.
        Reflect.deleteProperty(window, 'MediaSource');
        Reflect.deleteProperty(window, 'ManagedMediaSource');
        if (what === 'hls') {
          const canPlayType = HTMLMediaElement.prototype.canPlayType;
          HTMLMediaElement.prototype.canPlayType = function (type: string) {
            return /mpegurl/i.test(type) ? '' : canPlayType.call(this, type);
          };
        }
      }, without);
      const page = await context.newPage();
      const { played, fromEdge, problems } = await playIn(page, '?autoplay=true&muted=true');
      engines[without] = played.engine;
      expect(played.videoWidth).toBe(320);
      expect(fromEdge.map((url) => new URL(url).pathname)).toContain(without === 'mse' ? `/${guid}/playlist.m3u8` : `/${guid}/play_240p.mp4`);
      expect(problems).toEqual([]);
      await context.close();
    }
    expect(engines).toEqual({ mse: 'native', hls: 'mp4' });
  }, 90_000);

  it('with the embed token and the pull zone token on: refuses an unsigned or expired address, plays a signed one', async () => {
    expect((await t.post(`/videolibrary/${library.Id}`, { PlayerTokenAuthenticationEnabled: true, EnableTokenAuthentication: true })).status).toBe(200);
    const key = (await t.get(`/pullzone/${library.PullZoneId}`)).body.ZoneSecurityKey as string;
    const page = await browser.newPage();
    const base = `${videoOrigin}/embed/${library.Id}/${guid}`;
    expect((await page.goto(base))?.status()).toBe(403);
    expect(await page.textContent('body')).toContain('needs a signed address');
    const past = Math.floor(Date.now() / 1000) - 60;
    expect((await page.goto(`${base}?token=${embedToken(key, guid, past)}&expires=${past}`))?.status()).toBe(403);
    // The playlist itself is refused by the edge without a token.
    expect((await edge.get(zoneHost, `/${guid}/playlist.m3u8`)).status).toBe(403);

    const expires = Math.floor(Date.now() / 1000) + 3600;
    const { played, fromEdge, problems } = await playIn(page, `?token=${embedToken(key, guid, expires)}&expires=${expires}&autoplay=true&muted=true`);
    expect(played.engine).toBe('hls.js');
    expect(played.currentTime).toBeGreaterThan(1);
    expect(fromEdge.length).toBeGreaterThan(2);
    for (const url of fromEdge)
      expect(new URL(url).pathname).toMatch(new RegExp(`^/bcdn_token=HS256-[^/]+&token_path=%2F${guid}%2F&expires=${expires}/${guid}/`));
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
