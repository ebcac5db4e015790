/**
 * Test media made on the spot by ffmpeg's own sources (lavfi `testsrc2` and `sine`): no download.
 * Also the settings of a fresh library (the domain's defaults) to change per test, and a look at
 * what ffprobe says of an output.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { newVideoLibrary } from '../../src/domain/video-libraries/defaults.js';
import { findMediaTools } from '../../src/media/binaries.js';
import type { EncodingSettings, MediaTools } from '../../src/media/types.js';

export interface ClipOptions {
  width?: number;
  height?: number;
  seconds?: number;
  audio?: boolean;
  /** Written as the stream's `rotate` tag (the display matrix, in MP4) by a stream copy of the encoded clip. */
  rotate?: number;
  /** Extra output options, e.g. `['-f', 'mpegts']`. */
  output?: string[];
}

function ffmpeg(tools: MediaTools, args: string[]): void {
  const result = spawnSync(tools.ffmpeg.path, ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args], {
    env: { ...process.env, ...tools.ffmpeg.env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`ffmpeg failed making a test clip: ${result.stderr}`);
}

/** A test clip: a moving test picture (and a tone), H.264 and AAC. */
export function makeClip(tools: MediaTools, path: string, options: ClipOptions = {}): string {
  const { width = 640, height = 360, seconds = 3, audio = true } = options;
  ffmpeg(tools, [
    ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=30:duration=${seconds}`],
    ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...(audio ? ['-c:a', 'aac'] : []),
    ...(options.output ?? []),
    options.rotate === undefined ? path : `${path}.upright.mp4`,
  ]);
  // An encode drops the tag; a stream copy writes it (as the display matrix).
  if (options.rotate !== undefined) ffmpeg(tools, ['-i', `${path}.upright.mp4`, '-c', 'copy', '-metadata:s:v:0', `rotate=${options.rotate}`, path]);
  return path;
}

/** A watermark image: a small PNG of the test picture. */
export function makeImage(tools: MediaTools, path: string, width = 200, height = 100): string {
  ffmpeg(tools, ['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}`, '-frames:v', '1', path]);
  return path;
}

/** A new library's settings (the domain's defaults), with `changes`. */
export function librarySettings(changes: Partial<EncodingSettings> = {}): EncodingSettings {
  const library = newVideoLibrary({
    id: 1,
    name: 'clips',
    pullZoneId: 1,
    storageZoneId: 1,
    replicationRegions: [],
    apiKey: 'k',
    readOnlyApiKey: 'r',
    now: new Date(0),
  });
  return { ...library, ...changes };
}

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  profile?: string;
  level?: number;
}

/** ffprobe's streams and duration of a file, read with the tools under test. */
export function probeFile(tools: MediaTools, path: string): { streams: ProbedStream[]; format: { duration?: string; format_name: string } } {
  const result = spawnSync(tools.ffprobe.path, ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', path], {
    env: { ...process.env, ...tools.ffprobe.env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`ffprobe failed on ${path}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/**
 * For a test file: the npm packages' static builds (PATH searched nowhere, so the same build
 * whatever the machine has) and a temporary directory, removed afterwards.
 */
export function bundledToolsFor(name: string): { tools: MediaTools; dir: string } {
  const media = {} as { tools: MediaTools; dir: string };
  beforeAll(async () => {
    media.tools = await findMediaTools({}, { searchPath: '' });
    media.dir = mkdtempSync(join(tmpdir(), `edgeplane-media-${name}-`));
  });
  afterAll(() => rmSync(media.dir, { recursive: true, force: true }));
  return media;
}
