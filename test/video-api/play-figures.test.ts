import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { videoSubject } from '../../src/domain/usage/video-metrics.js';
import { libraryUsageSubject } from '../../src/domain/video-libraries/statistics.js';
import { readMediaPlaylist } from '../../src/media/playlists.js';
import type { Store } from '../../src/store/types.js';
import { buildApiOver } from '../helpers/app.js';
import { type EdgeAnswer, startEdgePlane } from '../helpers/edge-plane.js';
import { within } from '../helpers/within.js';
import { usePlayback, encodedVideo } from './encoded-video.js';
import { useVideoEnv } from './helpers.js';

const env = useVideoEnv();
const play = usePlayback(env);

const HOUR_MS = 3_600_000;
const hourName = (at: number) => `${new Date(Math.floor(at / HOUR_MS) * HOUR_MS).toISOString().slice(0, 19)}Z`;
const sum = (chart: Record<string, number>) => Object.values(chart).reduce((a, b) => a + b, 0);

/** Every row of the figures of `subject`, read from the store. */
const rowsOf = (store: Store, subject: string, metrics: string[]) => store.usage.series(subject, metrics, 0, Number.MAX_SAFE_INTEGER);

describe('figures from what the edge served', () => {
  it('counts views, watch time, the heatmap, hourly statistics and the traffic; a second instance adds up; deletions remove them', async () => {
    const { guid, host } = await encodedVideo(env, play, { seconds: 6 }, { EnabledResolutions: '240p', EnableMP4Fallback: true });
    const lib = `/library/${env.library.Id}`;
    let bytes = 0;
    const fetch = async (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<EdgeAnswer> => {
      const answer = await play.edge.request(method, host, path, headers);
      bytes += answer.body.length;
      return answer;
    };

    // One view, its playlists, each segment once and the first again: 4 + 4 + 2 seconds.
    expect((await fetch(`/${guid}/playlist.m3u8`)).status).toBe(200);
    const media = await fetch(`/${guid}/240p/video.m3u8`);
    const { segments } = readMediaPlaylist(media.text);
    expect(segments.map((s) => [s.uri, Math.round(s.seconds)])).toEqual([
      ['video0.ts', 4],
      ['video1.ts', 2],
    ]);
    for (const uri of ['video0.ts', 'video1.ts', 'video0.ts']) expect((await fetch(`/${guid}/240p/${uri}`)).status).toBe(200);
    // The MP4 fallback read from its start is a view; a seek into it, a HEAD and a missing video are not.
    expect((await fetch(`/${guid}/play_240p.mp4`)).status).toBe(200);
    expect((await fetch(`/${guid}/play_240p.mp4`, { range: 'bytes=1000-1999' })).status).toBe(206);
    expect((await fetch(`/${guid}/playlist.m3u8`, {}, 'HEAD')).status).toBe(200);
    expect((await fetch('/00000000-0000-4000-8000-000000000000/playlist.m3u8')).status).toBe(404);

    const video = async () => (await env.call('GET', `${lib}/videos/${guid}`)).body as { views: number; totalWatchTime: number; averageWatchTime: number };
    // The edge reports an answer once its last byte is written, which the client may read first;
    // the counts are written by a flush (every second in a server; by hand here).
    await within(5000, async () => {
      await env.t.app.services.videoPlays.flush();
      return (await video()).totalWatchTime === 10;
    });
    expect(await video()).toMatchObject({ views: 2, totalWatchTime: 10, averageWatchTime: 5 });
    // Segment index to intensity: the first segment was served twice (100), the second once.
    expect((await env.call('GET', `${lib}/videos/${guid}/heatmap`)).body).toEqual({ heatmap: { 0: 100, 1: 50 } });

    const now = Date.now();
    const period = `dateFrom=${new Date(now - 2 * HOUR_MS).toISOString()}&dateTo=${new Date(now + HOUR_MS).toISOString()}`;
    for (const scope of [`&videoGuid=${guid}`, '']) {
      const hourly = (await env.call('GET', `${lib}/statistics?hourly=true&${period}${scope}`)).body;
      expect(Object.keys(hourly.viewsChart)).toHaveLength(4);
      expect(hourly.viewsChart[hourName(now)]).toBe(2);
      expect(hourly.watchTimeChart[hourName(now)]).toBe(10);
      expect([sum(hourly.viewsChart), sum(hourly.watchTimeChart)]).toEqual([2, 10]);
      // 10 of the 2 × 6 seconds the views could have watched.
      expect(hourly.engagementScore).toBe(83);
      const daily = (await env.call('GET', `${lib}/statistics?${period}${scope}`)).body;
      expect([sum(daily.viewsChart), sum(daily.watchTimeChart)]).toEqual([2, 10]);
    }
    const library = async () => (await env.t.get(`/videolibrary/${env.library.Id}`)).body as { TrafficUsage: number; VideoCount: number };
    await within(5000, async () => (await library()).TrafficUsage === bytes);
    expect(await library()).toMatchObject({ TrafficUsage: bytes, VideoCount: 1 });

    // A second instance over the same store: what its edge serves adds to the same figures.
    const store = await env.t.openStore();
    let second: FastifyInstance | undefined = await buildApiOver({ config: env.t.config, store, masterKey: env.t.masterKey, clock: env.t.clock.read });
    const secondEdge = await startEdgePlane({ ...env.t, app: second });
    try {
      expect((await secondEdge.get(host, `/${guid}/playlist.m3u8`)).status).toBe(200);
      expect((await secondEdge.get(host, `/${guid}/240p/video1.ts`)).status).toBe(200);
      await secondEdge.close();
      // Closing an instance writes what it counted.
      await within(5000, async () => {
        await second?.services.videoPlays.flush();
        return (await video()).views === 3;
      });
      await second.close();
      second = undefined;
    } finally {
      await second?.close();
      await store.close();
    }
    expect(await video()).toMatchObject({ views: 3, totalWatchTime: 12, averageWatchTime: 4 });
    expect((await env.call('GET', `${lib}/videos/${guid}/heatmap`)).body.heatmap).toEqual({ 0: 100, 1: 100 });

    // Deleting the video removes its figures (the library's charts keep what was watched); deleting the library removes its own.
    expect(await rowsOf(env.t.store, videoSubject(guid), ['views', 'watch.seconds', 'segment.0'])).not.toHaveLength(0);
    expect((await env.call('DELETE', `${lib}/videos/${guid}`)).status).toBe(200);
    expect(await rowsOf(env.t.store, videoSubject(guid), ['views', 'watch.seconds', 'segment.0', 'segment.1'])).toEqual([]);
    expect((await env.call('GET', `${lib}/videos/${guid}/heatmap`)).status).toBe(404);
    expect(sum((await env.call('GET', `${lib}/statistics?hourly=true&${period}`)).body.viewsChart)).toBe(3);
    expect((await env.t.del(`/videolibrary/${env.library.Id}`)).status).toBe(204);
    expect(await rowsOf(env.t.store, libraryUsageSubject(env.library.Id), ['views', 'watch.seconds'])).toEqual([]);
  }, 60_000);
});
