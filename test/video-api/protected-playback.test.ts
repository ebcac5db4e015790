/**
 * Protected playback through the library's pull zone. With the library's token authentication on
 * (its key made by ResetToken, read from the pull zone's ZoneSecurityKey), an unsigned or expired
 * request is refused for the playlist and for a segment, a directory token over `/{guid}/` in the
 * path serves the master playlist, a rendition's playlist and its segments (the playlists' relative
 * addresses keep the token, so a player needs nothing more), and a token for another video opens
 * nothing of this one. The library's referrer rules, set through the management API, apply too.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { within } from '../helpers/within.js';
import { encodedVideo, playlistUris, usePlayback } from './encoded-video.js';
import { useVideoEnv } from './helpers.js';

const env = useVideoEnv();
const play = usePlayback(env);

/** The path prefix of a directory token over `directory` (HMAC-SHA256, as the platform's signing code writes it). */
function directoryToken(key: string, directory: string, expires: number): string {
  const signature = createHmac('sha256', key).update(directory).update(String(expires)).update(`token_path=${directory}`).digest('base64url');
  return `/bcdn_token=HS256-${signature}&token_path=${encodeURIComponent(directory)}&expires=${expires}`;
}

/** Where a playlist's relative `uri` leads from the playlist's own path. */
const resolve = (uri: string, from: string) => new URL(uri, `http://edge${from}`).pathname;

describe('token-protected playback', () => {
  it('refuses unsigned and expired requests, serves a directory token over the video’s folder, and no other video', async () => {
    const { guid, host } = await encodedVideo(env, play, { seconds: 6 }, { EnabledResolutions: '240p' });
    const other = await encodedVideo(env, play);
    const library = await env.t.post(`/videolibrary/${env.library.Id}`, { EnableTokenAuthentication: true, ResetToken: true });
    expect(library.status).toBe(200);
    const zone = (await env.t.get(`/pullzone/${env.library.PullZoneId}`)).body as { ZoneSecurityEnabled: boolean; ZoneSecurityKey: string };
    expect(zone.ZoneSecurityEnabled).toBe(true);
    const key = zone.ZoneSecurityKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);

    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    const expired = Math.floor(Date.now() / 1000) - 1;
    const files = [`/${guid}/playlist.m3u8`, `/${guid}/240p/video0.ts`];
    for (const file of files) {
      expect((await play.edge.get(host, file)).status, file).toBe(403);
      expect((await play.edge.get(host, `${directoryToken(key, `/${guid}/`, expired)}${file}`)).status, file).toBe(403);
      // Signed with the old key, or for the other video's folder.
      expect((await play.edge.get(host, `${directoryToken('not-the-key', `/${guid}/`, inAnHour)}${file}`)).status, file).toBe(403);
      expect((await play.edge.get(host, `${directoryToken(key, `/${other.guid}/`, inAnHour)}${file}`)).status, file).toBe(403);
    }

    // A player given the signed master playlist's address follows its relative addresses.
    const master = `${directoryToken(key, `/${guid}/`, inAnHour)}/${guid}/playlist.m3u8`;
    const masterAnswer = await play.edge.get(host, master);
    expect(masterAnswer.status).toBe(200);
    const [variant] = playlistUris(masterAnswer.text);
    const rendition = resolve(variant!, master);
    expect(rendition.startsWith('/bcdn_token=')).toBe(true);
    const renditionAnswer = await play.edge.get(host, rendition);
    expect(renditionAnswer.status).toBe(200);
    const segments = playlistUris(renditionAnswer.text);
    expect(segments).toEqual(['video0.ts', 'video1.ts']);
    for (const segment of segments) {
      const answer = await play.edge.get(host, resolve(segment, rendition));
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('video/mp2t');
    }
    // The other video's token opens the other video only.
    expect((await play.edge.get(host, `${directoryToken(key, `/${other.guid}/`, inAnHour)}/${other.guid}/playlist.m3u8`)).status).toBe(200);

    // Signed playback counts as any other: one view of this video, its six seconds watched.
    await within(5000, async () => {
      await env.t.app.services.videoPlays.flush();
      return (await env.call('GET', `/library/${env.library.Id}/videos/${guid}`)).body.totalWatchTime === 6;
    });
    expect((await env.call('GET', `/library/${env.library.Id}/videos/${guid}`)).body.views).toBe(1);
  }, 60_000);
});

describe('referrer rules on playback', () => {
  it('serves allowed referrers, refuses blocked ones, and refuses none when BlockNoneReferrer', async () => {
    const { guid, host } = await encodedVideo(env, play);
    const file = `/${guid}/playlist.m3u8`;
    const from = (page: string | undefined) => play.edge.get(host, file, page === undefined ? {} : { referer: page });
    const lib = `/videolibrary/${env.library.Id}`;
    const statuses = async () =>
      [await from('https://app.example/watch'), await from('https://elsewhere.example/'), await from(undefined)].map((a) => a.status);
    // The edge learns of the zone's change through the change feed.
    const expectStatuses = (expected: number[]) => within(5000, async () => JSON.stringify(await statuses()) === JSON.stringify(expected));

    expect(await statuses()).toEqual([200, 200, 200]);
    expect((await env.t.post(`${lib}/addAllowedReferrer`, { Hostname: 'app.example' })).status).toBe(200);
    await expectStatuses([200, 403, 200]);

    expect((await env.t.post(`${lib}/removeAllowedReferrer`, { Hostname: 'app.example' })).status).toBe(200);
    expect((await env.t.post(`${lib}/addBlockedReferrer`, { Hostname: 'elsewhere.example' })).status).toBe(200);
    await expectStatuses([200, 403, 200]);
    expect((await from('https://sub.elsewhere.example/')).status).toBe(200);

    expect((await env.t.post(lib, { BlockNoneReferrer: true })).status).toBe(200);
    await expectStatuses([200, 403, 403]);
    const zone = (await env.t.get(`/pullzone/${env.library.PullZoneId}`)).body as Record<string, unknown>;
    expect(zone).toMatchObject({ AllowedReferrers: [], BlockedReferrers: ['elsewhere.example'], BlockNoneReferrer: true });
    expect((await env.t.post(lib, { BlockNoneReferrer: false })).status).toBe(200);
    expect((await env.t.post(`${lib}/removeBlockedReferrer`, { Hostname: 'elsewhere.example' })).status).toBe(200);
    await expectStatuses([200, 200, 200]);
  }, 60_000);
});
