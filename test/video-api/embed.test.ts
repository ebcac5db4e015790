/**
 * The embed page over HTTP: the library's player settings in the page, its security headers, the
 * query options a site puts in the iframe's address, its small HTML error pages, the library's
 * referrer lists, the embed token (PlayerTokenAuthenticationEnabled), and the player's addresses
 * signed for a pull zone that asks for tokens (read back through the edge). Videos are moved to
 * their state through the domain's own progress method (what the encoding job calls): the page is
 * the subject here; test/browser/embed.test.ts plays a really encoded video.
 */
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { embedToken } from '../../src/domain/videos/embed-token.js';
import { VideoStatus } from '../../src/schemas/video.js';
import { startEdgePlane } from '../helpers/edge-plane.js';
import { createVideo, useVideoEnv } from './helpers.js';

const EDGE_PORT = 8082;
const env = useVideoEnv({ playbackUrl: `http://{host}:${EDGE_PORT}` });
const VTT = 'WEBVTT\n\n00:00.500 --> 00:02.000\nHello\n';

interface Page {
  status: number;
  html: string;
  headers: Record<string, string>;
}

async function page(path: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await env.plane.inject({ method: 'GET', url: path, headers } as InjectOptions);
  return { status: res.statusCode, html: res.body, headers: res.headers as Record<string, string> };
}

/** A video the library can play: finished, with a 360p rendition, an MP4 fallback and English captions. */
async function playableVideo(title = 'Embedded'): Promise<string> {
  const { guid } = await createVideo(env, title);
  const caption = await env.call('POST', `/library/${env.library.Id}/videos/${guid}/captions/en`, {
    label: 'English',
    captionsFile: Buffer.from(VTT).toString('base64'),
  });
  expect(caption.status).toBe(200);
  const videos = env.t.app.services.videos;
  await videos.recordProgress(env.library.Id, guid, {
    status: VideoStatus.Processing,
    probe: { length: 10, width: 320, height: 180, framerate: 30, rotation: null },
  });
  await videos.recordProgress(env.library.Id, guid, { status: VideoStatus.Transcoding, resolutionFinished: '360p', hasMP4Fallback: true });
  await videos.recordProgress(env.library.Id, guid, { status: VideoStatus.Finished, encodeProgress: 100 });
  return guid;
}

async function pullZone(): Promise<{ host: string; key: string }> {
  const zone = (await env.t.get(`/pullzone/${env.library.PullZoneId}`)).body as { Hostnames: { Value: string }[]; ZoneSecurityKey: string };
  return { host: zone.Hostnames[0]!.Value, key: zone.ZoneSecurityKey };
}

async function updateLibrary(settings: Record<string, unknown>): Promise<void> {
  const res = await env.t.post(`/videolibrary/${env.library.Id}`, settings);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The JSON data block the player script reads. */
function playerConfig(html: string): Record<string, any> {
  const block = /<script type="application\/json" id="player-config">(.*?)<\/script>/s.exec(html);
  expect(block).not.toBeNull();
  return JSON.parse(block![1]!);
}

const nowSeconds = () => Math.floor(env.t.clock.read().getTime() / 1000);

function expectErrorPage(res: Page, status: number, message: RegExp): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['content-security-policy']).toBe("default-src 'none'; base-uri 'none'; form-action 'none'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.html).toMatch(/^<!doctype html>/);
  expect(res.html).toMatch(message);
}

describe('the embed page', () => {
  it("plays the video's playlist with the library's colours, controls, captions style, language and speeds", async () => {
    await updateLibrary({
      PlayerKeyColor: '#336699',
      Controls: 'play-large,play,progress,current-time,settings,captions,fullscreen',
      UILanguage: 'de',
      FontFamily: 'Georgia',
      CaptionsFontSize: 28,
      CaptionsFontColor: '#ffff00',
      CaptionsBackground: 'rgba(0,0,0,0.5)',
      PlaybackSpeeds: '0.5,2',
      RememberPlayerPosition: true,
      EnableCompactControls: true,
    });
    const guid = await playableVideo('Ein <Film>');
    const { host, key } = await pullZone();
    const origin = `http://${host}:${EDGE_PORT}`;
    const res = await page(`/embed/${env.library.Id}/${guid}?autoplay=true&muted=true&loop=true&t=1m5s&captions=en`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBeUndefined();
    const nonce = /<style nonce="([^"]+)">/.exec(res.html)![1]!;
    expect(res.headers['content-security-policy']).toBe(
      [
        "default-src 'none'",
        "script-src 'self'",
        `style-src 'self' 'nonce-${nonce}'`,
        `img-src ${origin} data:`,
        `media-src ${origin} blob:`,
        `connect-src ${origin}`,
        "base-uri 'none'",
        "form-action 'none'",
        'frame-ancestors *',
      ].join('; '),
    );
    // No script runs from the page itself: only the data block and our files.
    expect([...res.html.matchAll(/<script([^>]*)>/g)].map((m) => m[1])).toEqual([
      ' type="application/json" id="player-config"',
      expect.stringMatching(/^ src="\/_player\/[0-9a-f]{16}\/hls\.light\.min\.js" defer$/),
      expect.stringMatching(/^ src="\/_player\/[0-9a-f]{16}\/player\.js" type="module"$/),
    ]);

    expect(res.html).toContain('<html lang="de">');
    expect(res.html).toContain('<title>Ein &lt;Film&gt;</title>');
    expect(res.html).toContain(':root{--key-color:#336699;--font-family:Georgia, sans-serif}');
    expect(res.html).toContain('video::cue{color:#ffff00;background:rgba(0,0,0,0.5);font-size:28px;font-family:Georgia, sans-serif}');
    expect(res.html).toContain('class="player compact"');
    const actions = [...res.html.matchAll(/data-action="([^"]+)"/g)].map((m) => m[1]);
    expect(actions).toEqual(['play-large', 'play', 'seek', 'speed', 'captions', 'fullscreen']);
    expect(res.html).toContain('aria-label="Abspielen"');
    expect(res.html).toContain('aria-label="Vollbild"');
    expect([...res.html.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1])).toEqual(['0.5', '1', '2']);
    expect(res.html).toMatch(/<video id="video" playsinline crossorigin="anonymous" preload="metadata" poster="[^"]+" autoplay muted loop>/);
    expect(res.html).toContain(`poster="${origin}/${guid}/thumbnail.jpg"`);
    expect(res.html).toContain(`<track kind="captions" srclang="en" label="English" src="${origin}/${guid}/captions/en.vtt?v=1" default>`);
    expect(playerConfig(res.html)).toEqual({
      guid,
      source: { kind: 'playlist', url: `${origin}/${guid}/playlist.m3u8` },
      fallbackUrl: `${origin}/${guid}/play_360p.mp4`,
      startTime: 65,
      autoplay: true,
      rememberPosition: true,
      labels: expect.objectContaining({ play: 'Abspielen', pause: 'Pause' }),
    });
    // Nothing secret: neither of the library's keys nor the pull zone's.
    for (const secret of [env.library.ApiKey, env.library.ReadOnlyApiKey, key]) expect(res.html).not.toContain(secret);

    // The page's files: ours and hls.js, kept by browsers for a year; another digest is not served.
    for (const path of [...res.html.matchAll(/(?:src|href)="(\/_player\/[^"]+)"/g)].map((m) => m[1]!)) {
      const asset = await env.plane.inject({ method: 'GET', url: path });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers['content-type']).toMatch(path.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      expect(asset.rawPayload.length).toBeGreaterThan(path.endsWith('hls.light.min.js') ? 100_000 : 500);
      expect((await env.plane.inject({ method: 'GET', url: path.replace(/\/_player\/[0-9a-f]{16}\//, '/_player/0000000000000000/') })).statusCode).toBe(404);
    }
    // Play data gives the same addresses.
    const play = (await env.call('GET', `/library/${env.library.Id}/videos/${guid}/play`)).body;
    expect([play.videoPlaylistUrl, play.thumbnailUrl]).toEqual([`${origin}/${guid}/playlist.m3u8`, `${origin}/${guid}/thumbnail.jpg`]);
  });

  it('answers small HTML pages for what cannot be shown: unknown library or video, not yet playable, failed, direct play refused', async () => {
    const guid = await playableVideo();
    expectErrorPage(await page(`/embed/${env.library.Id + 1000}/${guid}`), 404, /The requested video was not found/);
    expectErrorPage(await page(`/embed/${env.library.Id}/3f2a1c9e-8b7d-4e6f-9a0b-1c2d3e4f5a6b`), 404, /not found/);
    expectErrorPage(await page(`/embed/abc/${guid}`), 404, /not found/);
    expectErrorPage(await page(`/embed/${env.library.Id}/${guid}?t=${'9'.repeat(30)}`), 400, /not valid/);

    const waiting = (await createVideo(env, 'Waiting')).guid;
    expectErrorPage(await page(`/embed/${env.library.Id}/${waiting}`), 409, /still being processed/);
    await env.t.app.services.videos.recordProgress(env.library.Id, waiting, { status: VideoStatus.Error });
    expectErrorPage(await page(`/embed/${env.library.Id}/${waiting}`), 409, /could not be processed/);

    expect((await page(`/play/${env.library.Id}/${guid}`)).status).toBe(200);
    await updateLibrary({ AllowDirectPlay: false });
    expectErrorPage(await page(`/play/${env.library.Id}/${guid}`), 403, /does not allow direct play/);
    expect((await page(`/embed/${env.library.Id}/${guid}`)).status).toBe(200);
  });

  it("applies the library's referrer lists to the embedding site, and lets only the allowed sites frame it", async () => {
    const guid = await playableVideo();
    const url = `/embed/${env.library.Id}/${guid}`;
    expect((await env.t.post(`/videolibrary/${env.library.Id}/addAllowedReferrer`, { Hostname: '*.example.com' })).status).toBe(200);
    const allowed = await page(url, { referer: 'https://www.example.com/article' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['content-security-policy']).toContain("frame-ancestors 'self' *.example.com");
    expectErrorPage(await page(url, { referer: 'https://example.com/' }), 403, /may not be embedded on this site/);
    expectErrorPage(await page(url, { referer: 'https://other.test/' }), 403, /may not be embedded/);
    // No referrer passes the allowed list (as at the edge), unless BlockNoneReferrer.
    expect((await page(url)).status).toBe(200);
    await updateLibrary({ BlockNoneReferrer: true });
    expectErrorPage(await page(url), 403, /may not be embedded/);

    expect((await env.t.post(`/videolibrary/${env.library.Id}/addBlockedReferrer`, { Hostname: 'bad.example.com' })).status).toBe(200);
    expectErrorPage(await page(url, { referer: 'https://bad.example.com/' }), 403, /may not be embedded/);
    expect((await page(url, { referer: 'https://good.example.com/' })).status).toBe(200);

    // The player's own requests carry the page's origin (Referrer-Policy: strict-origin): with
    // AllowedReferrers, the edge serves them once the video plane's host name is listed too (README).
    expect((await page(url, { referer: 'https://www.example.com/' })).headers['referrer-policy']).toBe('strict-origin');
    const { host } = await pullZone();
    const edge = await startEdgePlane(env.t);
    try {
      const captions = `/${guid}/captions/en.vtt`;
      const fromPlayer = { referer: 'http://video.edgeplane.test:8084/' };
      expect((await edge.get(host, captions, fromPlayer)).status).toBe(403);
      expect((await env.t.post(`/videolibrary/${env.library.Id}/addAllowedReferrer`, { Hostname: 'video.edgeplane.test' })).status).toBe(200);
      expect((await edge.get(host, captions, fromPlayer)).status).toBe(200);
    } finally {
      await edge.close();
    }
  });

  it('with PlayerTokenAuthenticationEnabled, opens only with a valid, unexpired token for this video', async () => {
    const guid = await playableVideo();
    const other = await playableVideo('Other');
    await updateLibrary({ PlayerTokenAuthenticationEnabled: true });
    const { key } = await pullZone();
    const url = `/embed/${env.library.Id}/${guid}`;
    const expires = nowSeconds() + 600;

    expectErrorPage(await page(url), 403, /needs a signed address/);
    expectErrorPage(await page(`${url}?token=${embedToken(key, guid, expires)}`), 403, /needs a signed address/);
    expectErrorPage(await page(`${url}?token=${'0'.repeat(64)}&expires=${expires}`), 403, /not valid/);
    expectErrorPage(await page(`${url}?token=${embedToken(key, other, expires)}&expires=${expires}`), 403, /not valid/);
    expectErrorPage(await page(`${url}?token=${embedToken(key, guid, expires)}&expires=${expires + 1}`), 403, /not valid/);
    expectErrorPage(await page(`${url}?token=nothex&expires=${expires}`), 403, /not valid/);
    const past = nowSeconds() - 1;
    expectErrorPage(await page(`${url}?token=${embedToken(key, guid, past)}&expires=${past}`), 403, /expired/);

    const signed = await page(`${url}?token=${embedToken(key, guid, expires)}&expires=${expires}`);
    expect(signed.status).toBe(200);
    expect(signed.html).not.toContain(key);
    // Upper-case hex is the same token; it expires at its second.
    expect((await page(`${url}?token=${embedToken(key, guid, expires).toUpperCase()}&expires=${expires}`)).status).toBe(200);
    env.t.clock.advance(600_000);
    expectErrorPage(await page(`${url}?token=${embedToken(key, guid, expires)}&expires=${expires}`), 403, /expired/);
    // A new key (ResetToken) ends the old tokens at once.
    env.t.clock.advance(-600_000);
    await updateLibrary({ ResetToken: true });
    expectErrorPage(await page(`${url}?token=${embedToken(key, guid, expires)}&expires=${expires}`), 403, /not valid/);
    const fresh = (await pullZone()).key;
    expect((await page(`${url}?token=${embedToken(fresh, guid, expires)}&expires=${expires}`)).status).toBe(200);
    // So does a new key set on the pull zone itself.
    expect((await env.t.post(`/pullzone/${env.library.PullZoneId}/resetSecurityKey`, { SecurityKey: 'a-key-of-the-zone-0123' })).status).toBe(204);
    expectErrorPage(await page(`${url}?token=${embedToken(fresh, guid, expires)}&expires=${expires}`), 403, /not valid/);
    expect((await page(`${url}?token=${embedToken('a-key-of-the-zone-0123', guid, expires)}&expires=${expires}`)).status).toBe(200);
  });

  it("signs the player's addresses with a directory token when the pull zone asks for tokens: the edge serves the video's files to them, nothing else", async () => {
    const guid = await playableVideo();
    await updateLibrary({ EnableTokenAuthentication: true });
    const { host } = await pullZone();
    // The edge checks expiry on the real clock: the page signs on the same time.
    env.t.clock.advance(Date.now() - env.t.clock.read().getTime());
    const origin = `http://${host}:${EDGE_PORT}`;
    const res = await page(`/embed/${env.library.Id}/${guid}`);
    expect(res.status).toBe(200);
    const config = playerConfig(res.html);
    const prefix = new RegExp(`^${origin.replace(/\./g, '\\.')}/bcdn_token=HS256-[A-Za-z0-9_-]{43}&token_path=%2F${guid}%2F&expires=(\\d+)/${guid}/`);
    expect(config['source'].url).toMatch(prefix);
    expect(config['fallbackUrl']).toMatch(prefix);
    // Good for the video's length and an hour more, without an embed token to follow.
    expect(Number(prefix.exec(config['source'].url)![1])).toBe(Math.ceil(env.t.clock.read().getTime() / 1000) + 10 + 3600);
    const track = /<track [^>]*src="([^"]+)"/.exec(res.html)![1]!.replace(/&amp;/g, '&');
    expect(track).toMatch(prefix);

    const edge = await startEdgePlane(env.t);
    try {
      const signedPath = track.slice(origin.length);
      const served = await edge.get(host, signedPath, { origin: 'http://127.0.0.1:8084' });
      expect(served.status).toBe(200);
      expect(served.text).toBe(VTT);
      // The library's pull zone lets players on other origins read its playlists, segments and captions.
      expect(served.headers['access-control-allow-origin']).toBe('*');
      expect((await edge.get(host, `/${guid}/captions/en.vtt`)).status).toBe(403);
      const elsewhere = signedPath.replace(`/${guid}/captions/en.vtt`, '/another/captions/en.vtt');
      expect((await edge.get(host, elsewhere)).status).toBe(403);
    } finally {
      await edge.close();
    }
  });

  it('with both tokens on, the addresses last as long as the embed token when it outlives the video', async () => {
    const guid = await playableVideo();
    await updateLibrary({ EnableTokenAuthentication: true, PlayerTokenAuthenticationEnabled: true });
    const { key } = await pullZone();
    const expires = nowSeconds() + 86_400;
    const res = await page(`/embed/${env.library.Id}/${guid}?token=${embedToken(key, guid, expires)}&expires=${expires}`);
    expect(res.status).toBe(200);
    expect(playerConfig(res.html)['source'].url).toContain(`&expires=${expires}/${guid}/playlist.m3u8`);
  });
});
