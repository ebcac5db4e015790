/**
 * One encode checked end to end, with whichever ffmpeg the caller chose (the npm build in
 * run.test.ts, the system's in system-ffmpeg.test.ts): a 3 s 640x360 clip with a tone into 240p and
 * 360p (plus `extraCodecs`), MP4 fallbacks and a watermark; then every planned file, each
 * rendition's height as ffprobe reads it, the master playlist, the thumbnail, the preview, the
 * progress and the renditions reported, and the watermark's pixels.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { buildEncodePlan } from '../../src/media/plan.js';
import { probe } from '../../src/media/probe.js';
import { runEncodePlan } from '../../src/media/run.js';
import type { MediaTools, OutputCodec } from '../../src/media/types.js';
import { librarySettings, makeClip, makeImage, probeFile } from './clips.js';

/** One grey frame of a video at `seconds`, scaled to `width`x`height`, as bytes (one per pixel). */
function greyFrame(tools: MediaTools, file: string, seconds: number, width: number, height: number): Buffer {
  const result = spawnSync(
    tools.ffmpeg.path,
    ['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1', '-vf', `scale=${width}:${height}`, '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
    { env: { ...process.env, ...tools.ffmpeg.env }, maxBuffer: 16 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`frame extraction failed: ${result.stderr}`);
  return result.stdout;
}

/** Mean absolute difference of two grey frames over a rectangle. */
function difference(a: Buffer, b: Buffer, width: number, box: { x: number; y: number; w: number; h: number }): number {
  let sum = 0;
  for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) sum += Math.abs(a[y * width + x]! - b[y * width + x]!);
  return sum / (box.w * box.h);
}

export async function encodeClipAndCheck(tools: MediaTools, dir: string, extraCodecs: OutputCodec[] = []): Promise<void> {
  const source = makeClip(tools, join(dir, 'source.mp4'));
  const watermark = makeImage(tools, join(dir, 'mark.png'), 200, 100);
  const info = await probe(tools, source);
  const settings = librarySettings({
    EnabledResolutions: '240p,360p,720p',
    OutputCodecs: ['x264', ...extraCodecs].join(','),
    EnableMP4Fallback: true,
    HasWatermark: true,
    WatermarkPositionLeft: 70,
    WatermarkPositionTop: 70,
    WatermarkWidth: 20,
    WatermarkHeight: 20,
  });
  const outputDir = join(dir, 'out');
  const plan = buildEncodePlan({ source, outputDir, info, settings, capabilities: tools.capabilities, watermarkFile: watermark, thumbnailTimeMs: 1000 });
  const progress: number[] = [];
  const reported: string[] = [];
  const result = await runEncodePlan(tools, plan, {
    onProgress: (fraction) => progress.push(fraction),
    onRendition: (r) => {
      reported.push(`${r.label} ${r.codec}`);
      // The master playlist already lists it when the caller hears of it.
      expect(readFileSync(join(outputDir, 'playlist.m3u8'), 'utf8')).toContain(r.playlist);
    },
  });

  // Every planned file exists, and the result lists them.
  const written = new Set(result.files.map((f) => f.path));
  for (const file of plan.files) expect(written, file).toContain(file);
  expect(result.files.every((f) => f.bytes > 0)).toBe(true);

  // Exactly the renditions asked for, each at its height as ffprobe reads it, listed in the master.
  const expected = [
    ['240p', 'x264', 426, 240],
    ['360p', 'x264', 640, 360],
    ...extraCodecs.flatMap((codec) => [
      ['240p', codec, 426, 240],
      ['360p', codec, 640, 360],
    ]),
  ];
  expect(reported).toEqual(expected.map(([label, codec]) => `${label} ${codec}`));
  const master = readFileSync(join(outputDir, 'playlist.m3u8'), 'utf8');
  const variants = [...master.matchAll(/#EXT-X-STREAM-INF:.*RESOLUTION=(\d+)x(\d+),CODECS="([^"]+)".*\n(.+)/g)].map((m) => [
    m[4],
    Number(m[1]),
    Number(m[2]),
    m[3],
  ]);
  expect(variants.map(([playlist, width, height]) => [playlist, width, height])).toEqual(result.renditions.map((r) => [r.playlist, r.width, r.height]));
  for (const [index, [, codec, width, height]] of expected.entries()) {
    const rendition = result.renditions[index]!;
    expect([rendition.codec, rendition.width, rendition.height]).toEqual([codec, width, height]);
    const video = probeFile(tools, join(outputDir, rendition.playlist)).streams.find((s) => s.codec_type === 'video')!;
    expect([video.width, video.height]).toEqual([width, height]);
    // CODECS tells the truth: for x264 (decided by the plan) the stream's profile and level are those announced.
    if (codec === 'x264') expect([video.profile, variants[index]![3]]).toEqual(['High', `avc1.6400${video.level!.toString(16)},mp4a.40.2`]);
    else expect(variants[index]![3]).toMatch(/,mp4a\.40\.2$/);
  }

  // The MP4 fallbacks play: H.264 and AAC, the clip's length.
  for (const [label, height] of [
    ['240p', 240],
    ['360p', 360],
  ] as const) {
    const mp4 = probeFile(tools, join(outputDir, `play_${label}.mp4`));
    expect(mp4.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(mp4.streams.find((s) => s.codec_type === 'video')!.height).toBe(height);
    expect(Number(mp4.format.duration)).toBeCloseTo(3, 0);
  }

  // The thumbnail: a JPEG of the source's aspect, the largest rendition's width; three numbered ones; an animated WebP.
  const thumbnail = readFileSync(join(outputDir, 'thumbnail.jpg'));
  expect([thumbnail[0], thumbnail[1], thumbnail[2]]).toEqual([0xff, 0xd8, 0xff]);
  const picture = probeFile(tools, join(outputDir, 'thumbnail.jpg')).streams[0]!;
  expect([picture.width, picture.height]).toEqual([640, 360]);
  expect(plan.thumbnailCount).toBe(3);
  const preview = readFileSync(join(outputDir, 'preview.webp'));
  expect(preview.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(preview.subarray(8, 12).toString('latin1')).toBe('WEBP');
  expect(preview.includes(Buffer.from('ANIM'))).toBe(true);

  // Progress rose to 1 and never went back.
  expect(progress.at(-1)).toBe(1);
  expect(progress.length).toBeGreaterThan(plan.steps.length);
  expect(progress.every((f, i) => i === 0 || f >= progress[i - 1]!)).toBe(true);

  // The watermark is burnt in: inside its box the picture differs from the source, elsewhere hardly.
  const [width, height] = [640, 360];
  const original = greyFrame(tools, source, 1, width, height);
  const encoded = greyFrame(tools, join(outputDir, 'play_360p.mp4'), 1, width, height);
  // 20 % of 640x360 is a 128x72 box at (448, 252); the 2:1 image fits it as 128x64.
  const inside = difference(original, encoded, width, { x: 452, y: 256, w: 120, h: 56 });
  const outside = difference(original, encoded, width, { x: 40, y: 40, w: 300, h: 150 });
  expect(inside).toBeGreaterThan(5 * outside);
}
