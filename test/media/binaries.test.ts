/**
 * Which ffmpeg is used: a named one, else one on PATH, else the npm packages' static builds; and
 * what it encodes, read from `ffmpeg -encoders`.
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesOf, chooseTools, findMediaTools, parseEncoders } from '../../src/media/binaries.js';
import { MediaToolsMissingError } from '../../src/media/errors.js';
import type { MediaTools } from '../../src/media/types.js';

let bundled: MediaTools;
let dir: string;

beforeAll(async () => {
  bundled = await findMediaTools({}, { searchPath: '' });
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-media-bin-'));
  symlinkSync(bundled.ffmpeg.path, join(dir, 'ffmpeg'));
  symlinkSync(bundled.ffprobe.path, join(dir, 'ffprobe'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('choosing ffmpeg', () => {
  it("falls back to the npm packages' static builds, with their workaround, and learns what they encode", () => {
    expect(bundled.ffmpeg).toMatchObject({ origin: 'bundled', env: { GCONV_PATH: expect.any(String) } });
    expect(bundled.ffmpeg.path).toMatch(/node_modules\/@ffmpeg-installer\/linux-x64\/ffmpeg$/);
    expect(bundled.ffprobe.path).toMatch(/node_modules\/@ffprobe-installer\/linux-x64\/ffprobe$/);
    expect(bundled.capabilities.video).toEqual({ x264: 'libx264', vp9: 'libvpx-vp9', hevc: 'libx265', av1: 'libaom-av1' });
    expect(bundled.capabilities.experimental).toContain('libaom-av1');
    expect(bundled.capabilities.webp).toBe('libwebp_anim');
    expect(bundled.description).toContain('x264 libx264, vp9 libvpx-vp9, hevc libx265, av1 libaom-av1');
  });

  it('takes the ones on PATH before the npm builds, without the workaround', () => {
    const tools = chooseTools({}, { searchPath: `/nonexistent:${dir}` });
    expect(tools.ffmpeg).toEqual({ path: join(dir, 'ffmpeg'), env: {}, origin: 'system' });
    expect(tools.ffprobe).toEqual({ path: join(dir, 'ffprobe'), env: {}, origin: 'system' });
  });

  it('takes a named ffmpeg first, and the ffprobe beside it unless one is named too', async () => {
    const named = await findMediaTools({ ffmpegPath: join(dir, 'ffmpeg') }, { searchPath: '' });
    expect([named.ffmpeg.origin, named.ffmpeg.path, named.ffprobe.path]).toEqual(['configured', join(dir, 'ffmpeg'), join(dir, 'ffprobe')]);
    expect(named.description).toMatch(/\(configured, /);
    const both = chooseTools({ ffmpegPath: join(dir, 'ffmpeg'), ffprobePath: bundled.ffprobe.path }, { searchPath: '' });
    expect(both.ffprobe).toEqual({ path: bundled.ffprobe.path, env: {}, origin: 'configured' });
  });

  it('says clearly when a named ffmpeg does not run', async () => {
    await expect(findMediaTools({ ffmpegPath: join(dir, 'no-such-ffmpeg') })).rejects.toThrow(MediaToolsMissingError);
    await expect(findMediaTools({ ffmpegPath: join(dir, 'no-such-ffmpeg') })).rejects.toThrow(/Cannot run .*no-such-ffmpeg \(ENOENT\)/);
  });
});

describe('reading -encoders', () => {
  const listing = [
    'Encoders:',
    ' V..... = Video',
    ' ------',
    ' V....D libx264              libx264 H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 (codec h264)',
    ' V..X.. libaom-av1           libaom AV1 (codec av1)',
    ' V....D libsvtav1            SVT-AV1(Scalable Video Technology for AV1) encoder (codec av1)',
    ' A....D aac                  AAC (Advanced Audio Coding)',
  ].join('\n');

  it('finds each encoder and whether it is experimental', () => {
    expect([...parseEncoders(listing)]).toEqual([
      ['libx264', { experimental: false }],
      ['libaom-av1', { experimental: true }],
      ['libsvtav1', { experimental: false }],
      ['aac', { experimental: false }],
    ]);
  });

  it('prefers SVT-AV1 to libaom, and has no encoder for what the build lacks', () => {
    expect(capabilitiesOf('5.1', listing)).toEqual({
      version: '5.1',
      video: { x264: 'libx264', vp9: null, hevc: null, av1: 'libsvtav1' },
      experimental: ['libaom-av1'],
      webp: null,
    });
  });
});
