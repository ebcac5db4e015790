/**
 * Playing an encoded video through the edge: the library's pull zone (made with it) serves the
 * video's folder from its storage zone — the master playlist lists exactly the renditions the
 * library asked for (up to the source), each rendition's playlist and segments are served, the MP4
 * fallback is a playable video of its height (read by ffprobe), and the thumbnail is a JPEG.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findMediaTools } from '../../src/media/binaries.js';
import type { MediaTools } from '../../src/media/types.js';
import { VideoStatus } from '../../src/schemas/video.js';
import { type EdgePlane, startEdgePlane } from '../helpers/edge-plane.js';
import { makeClip } from '../media/clips.js';
import { useVideoEnv } from './helpers.js';

const env = useVideoEnv();
let tools: MediaTools;
let dir: string;
let edge: EdgePlane;

beforeAll(async () => {
  tools = await findMediaTools({});
});
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-playback-'));
  edge = await startEdgePlane(env.t);
});
afterEach(async () => {
  await edge.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Stream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
}

/** What ffprobe reads in `bytes` (written to a file of the test's). */
function probeStreams(bytes: Buffer, name: string): Stream[] {
  writeFileSync(join(dir, name), bytes);
  const probed = spawnSync(tools.ffprobe.path, ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height', '-of', 'json', join(dir, name)], {
    env: { ...process.env, ...tools.ffprobe.env },
    encoding: 'utf8',
  });
  return (JSON.parse(probed.stdout) as { streams: Stream[] }).streams;
}

describe('playing an encoded video through the edge', () => {
  it('serves the master playlist with the asked renditions, their segments, a playable MP4 fallback and a JPEG thumbnail', async () => {
    const settings = { EnabledResolutions: '240p,360p,1080p', EnableMP4Fallback: true };
    expect((await env.t.post(`/videolibrary/${env.library.Id}`, settings)).status).toBe(200);
    const guid = (await env.call('POST', `/library/${env.library.Id}/videos`, { title: 'clip' })).body.guid as string;
    const clip = readFileSync(makeClip(tools, join(dir, 'clip.mp4'), { width: 640, height: 360, seconds: 3 }));
    expect((await env.call('PUT', `/library/${env.library.Id}/videos/${guid}`, clip)).status).toBe(200);
    await env.t.runJobs();
    expect((await env.call('GET', `/library/${env.library.Id}/videos/${guid}`)).body.status).toBe(VideoStatus.Finished);

    const zone = (await env.t.get(`/pullzone/${env.library.PullZoneId}`)).body as { Hostnames: { Value: string }[] };
    const host = zone.Hostnames[0]!.Value;
    const master = await edge.get(host, `/${guid}/playlist.m3u8`);
    expect(master.status).toBe(200);
    const variants = master.text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(variants.sort()).toEqual(['240p/video.m3u8', '360p/video.m3u8']);
    expect(master.text).toMatch(/RESOLUTION=640x360/);

    for (const variant of variants) {
      const media = await edge.get(host, `/${guid}/${variant}`);
      expect(media.status).toBe(200);
      const segments = media.text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
      expect(segments.length).toBeGreaterThan(0);
      const folder = variant.slice(0, variant.lastIndexOf('/'));
      const segment = await edge.get(host, `/${guid}/${folder}/${segments[0]}`);
      expect(segment.status).toBe(200);
      expect(segment.body.length).toBeGreaterThan(1000);
    }

    const mp4 = await edge.get(host, `/${guid}/play_360p.mp4`);
    expect(mp4.status).toBe(200);
    const fallback = probeStreams(mp4.body, 'fallback.mp4');
    expect(fallback.find((s) => s.codec_type === 'video')?.height).toBe(360);
    expect(fallback.some((s) => s.codec_type === 'audio')).toBe(true);

    const thumbnail = await edge.get(host, `/${guid}/thumbnail.jpg`);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    const [picture] = probeStreams(thumbnail.body, 'thumbnail.jpg');
    expect([picture?.codec_name, picture?.width, picture?.height]).toEqual(['mjpeg', 640, 360]);
  }, 60_000);
});
