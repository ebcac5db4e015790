/**
 * Playing an encoded video through the edge: the library's pull zone (made with it) serves the
 * video's folder from its storage zone — the master playlist lists exactly the renditions the
 * library asked for (up to the source), each rendition's playlist and segments are served, the MP4
 * fallback is a playable video of its height (read by ffprobe), and the thumbnail is a JPEG.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usePlayback, encodedVideo, playlistUris } from './encoded-video.js';
import { useVideoEnv } from './helpers.js';

const env = useVideoEnv();
const play = usePlayback(env);

interface Stream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
}

/** What ffprobe reads in `bytes` (written to a file of the test's). */
function probeStreams(bytes: Buffer, name: string): Stream[] {
  writeFileSync(join(play.dir, name), bytes);
  const probed = spawnSync(
    play.tools.ffprobe.path,
    ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height', '-of', 'json', join(play.dir, name)],
    {
      env: { ...process.env, ...play.tools.ffprobe.env },
      encoding: 'utf8',
    },
  );
  return (JSON.parse(probed.stdout) as { streams: Stream[] }).streams;
}

describe('playing an encoded video through the edge', () => {
  it('serves the master playlist with the asked renditions, their segments, a playable MP4 fallback and a JPEG thumbnail', async () => {
    const settings = { EnabledResolutions: '240p,360p,1080p', EnableMP4Fallback: true };
    const { guid, host } = await encodedVideo(env, play, { width: 640, height: 360, seconds: 3 }, settings);
    const master = await play.edge.get(host, `/${guid}/playlist.m3u8`);
    expect(master.status).toBe(200);
    const variants = playlistUris(master.text);
    expect(variants.sort()).toEqual(['240p/video.m3u8', '360p/video.m3u8']);
    expect(master.text).toMatch(/RESOLUTION=640x360/);

    for (const variant of variants) {
      const media = await play.edge.get(host, `/${guid}/${variant}`);
      expect(media.status).toBe(200);
      const segments = playlistUris(media.text);
      expect(segments.length).toBeGreaterThan(0);
      const folder = variant.slice(0, variant.lastIndexOf('/'));
      const segment = await play.edge.get(host, `/${guid}/${folder}/${segments[0]}`);
      expect(segment.status).toBe(200);
      expect(segment.body.length).toBeGreaterThan(1000);
    }

    const mp4 = await play.edge.get(host, `/${guid}/play_360p.mp4`);
    expect(mp4.status).toBe(200);
    const fallback = probeStreams(mp4.body, 'fallback.mp4');
    expect(fallback.find((s) => s.codec_type === 'video')?.height).toBe(360);
    expect(fallback.some((s) => s.codec_type === 'audio')).toBe(true);

    const thumbnail = await play.edge.get(host, `/${guid}/thumbnail.jpg`);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    const [picture] = probeStreams(thumbnail.body, 'thumbnail.jpg');
    expect([picture?.codec_name, picture?.width, picture?.height]).toEqual(['mjpeg', 640, 360]);
  }, 60_000);

  it('serves the new files after a re-encode, not the copies the edge kept of the first encode', async () => {
    const { guid, host } = await encodedVideo(env, play, {}, { EnabledResolutions: '240p', KeepOriginalFiles: true, Bitrate240p: 300 });
    const segment = `/${guid}/240p/video0.ts`;
    const first = await play.edge.get(host, segment);
    expect(first.status).toBe(200);
    expect((await play.edge.get(host, segment)).headers['cdn-cache']).toBe('HIT');

    // Another bitrate: the same names, other bytes.
    expect((await env.t.post(`/videolibrary/${env.library.Id}`, { Bitrate240p: 100 })).status).toBe(200);
    expect((await env.call('POST', `/library/${env.library.Id}/videos/${guid}/reencode`)).status).toBe(200);
    await env.t.runJobs();
    const stored = await env.t.app.services.files.readBytes((await env.t.app.services.files.find(await zoneOf(), segment.slice(1)))!);
    expect(stored.equals(first.body)).toBe(false);
    const again = await play.edge.get(host, segment);
    expect(again.status).toBe(200);
    expect(again.body.equals(stored)).toBe(true);
  }, 60_000);
});

/** The library's storage zone, as the file service addresses it. */
async function zoneOf() {
  const access = await env.t.app.services.videos.keys.find(env.library.Id);
  return access!.zone;
}
