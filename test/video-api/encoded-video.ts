/**
 * Playing videos of a test library through the edge: ffmpeg found once, a working folder and an
 * edge plane per test (usePlayback), a video uploaded and encoded (a short clip made by ffmpeg's
 * own sources), and the host its library's pull zone serves it on.
 *
 *   const env = useVideoEnv();
 *   const play = usePlayback(env);
 *   const { guid, host } = await encodedVideo(env, play, { seconds: 6 }, { EnabledResolutions: '240p' });
 *   await play.edge.get(host, `/${guid}/playlist.m3u8`);
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { findMediaTools } from '../../src/media/binaries.js';
import type { MediaTools } from '../../src/media/types.js';
import { VideoStatus } from '../../src/schemas/video.js';
import { type EdgePlane, startEdgePlane } from '../helpers/edge-plane.js';
import { type ClipOptions, makeClip } from '../media/clips.js';
import { createVideo, type VideoEnv } from './helpers.js';

export interface Playback {
  tools: MediaTools;
  /** A fresh folder per test (clips, files to probe). */
  dir: string;
  /** The edge plane over the test's app, on a loopback port. */
  edge: EdgePlane;
}

export function usePlayback(env: VideoEnv): Playback {
  const play = {} as Playback;
  beforeAll(async () => {
    play.tools = await findMediaTools({});
  });
  beforeEach(async () => {
    play.dir = mkdtempSync(join(tmpdir(), 'edgeplane-playback-'));
    play.edge = await startEdgePlane(env.t);
  });
  afterEach(async () => {
    await play.edge.close();
    rmSync(play.dir, { recursive: true, force: true });
  });
  return play;
}

export interface EncodedVideo {
  guid: string;
  /** The system hostname of the library's pull zone. */
  host: string;
}

/**
 * `settings` are applied to the library first (POST /videolibrary/{id}); the clip is 426x240, 2 s,
 * unless `clip` says otherwise; `beforeUpload` runs between the video's creation and its upload.
 */
export async function encodedVideo(
  env: VideoEnv,
  play: Pick<Playback, 'tools' | 'dir'>,
  clip: ClipOptions = {},
  settings: Record<string, unknown> = {},
  beforeUpload?: (guid: string) => Promise<void>,
): Promise<EncodedVideo> {
  if (Object.keys(settings).length > 0) expect((await env.t.post(`/videolibrary/${env.library.Id}`, settings)).status).toBe(200);
  const { guid } = await createVideo(env, 'clip');
  await beforeUpload?.(guid);
  const bytes = readFileSync(makeClip(play.tools, join(play.dir, `${guid}.mp4`), { width: 426, height: 240, seconds: 2, ...clip }));
  expect((await env.call('PUT', `/library/${env.library.Id}/videos/${guid}`, bytes)).status).toBe(200);
  await env.t.runJobs();
  expect((await env.call('GET', `/library/${env.library.Id}/videos/${guid}`)).body.status).toBe(VideoStatus.Finished);
  return { guid, host: await playbackHost(env) };
}

/** The system hostname of the library's pull zone. */
export async function playbackHost(env: VideoEnv): Promise<string> {
  const zone = (await env.t.get(`/pullzone/${env.library.PullZoneId}`)).body as { Hostnames: { Value: string; IsSystemHostname: boolean }[] };
  return (zone.Hostnames.find((h) => h.IsSystemHostname) ?? zone.Hostnames[0])!.Value;
}

/** The URIs a playlist lists (its lines that are not tags). */
export const playlistUris = (text: string): string[] => text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
