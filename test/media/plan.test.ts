/**
 * The encode plan's decisions, without ffmpeg: which renditions at which sizes and bitrates, which
 * codecs, which files, and the ffmpeg arguments that carry each setting.
 */
import { describe, expect, it } from 'vitest';
import { buildEncodePlan, thumbnailCountFor, thumbnailSeconds } from '../../src/media/plan.js';
import { boxOf, chooseCodecs, sizeFor, sizedResolutions } from '../../src/media/renditions.js';
import { h264Level } from '../../src/media/video-encoders.js';
import type { EncoderCapabilities, EncodingSettings, MediaInfo } from '../../src/media/types.js';
import { librarySettings } from './clips.js';

const ALL_ENCODERS: EncoderCapabilities = {
  version: 'test',
  video: { x264: 'libx264', vp9: 'libvpx-vp9', hevc: 'libx265', av1: 'libaom-av1' },
  experimental: ['libaom-av1'],
  webp: 'libwebp_anim',
};
const X264_ONLY: EncoderCapabilities = { ...ALL_ENCODERS, video: { x264: 'libx264', vp9: null, hevc: null, av1: null }, experimental: [], webp: null };

const clip = (width: number, height: number, more: Partial<MediaInfo> = {}): MediaInfo => ({
  durationSeconds: 3,
  width,
  height,
  framerate: 30,
  rotation: 0,
  hasAudio: true,
  videoCodec: 'h264',
  ...more,
});

function plan(
  info: MediaInfo,
  changes: Partial<EncodingSettings> = {},
  capabilities = ALL_ENCODERS,
  extra: { watermarkFile?: string; thumbnailTimeMs?: number } = {},
) {
  return buildEncodePlan({ source: '/in/source.mov', outputDir: '/out', info, settings: librarySettings(changes), capabilities, ...extra });
}

const sizes = (p: ReturnType<typeof plan>) => p.renditions.map((r) => `${r.label} ${r.codec} ${r.width}x${r.height}`);

describe('renditions', () => {
  it('a 480p source with 240p,360p,720p enabled gets 240p and 360p, at its aspect, even sizes', () => {
    expect(sizes(plan(clip(854, 480), { EnabledResolutions: '240p,360p,720p' }))).toEqual(['240p x264 426x240', '360p x264 640x360']);
  });

  it('a source smaller than every enabled resolution gets the smallest one, at its own size (never enlarged)', () => {
    expect(sizes(plan(clip(320, 180), { EnabledResolutions: '360p,720p' }))).toEqual(['360p x264 320x180']);
    expect(sizes(plan(clip(321, 181), { EnabledResolutions: '720p,360p' }))).toEqual(['360p x264 320x180']);
  });

  it('keeps the enabled order canonical and ignores repeats', () => {
    expect(sizes(plan(clip(1920, 1080), { EnabledResolutions: '1080p, 240p,1080p' }))).toEqual(['240p x264 426x240', '1080p x264 1920x1080']);
  });

  it('fits a wide film into each box by both dimensions, and enlarges nothing', () => {
    expect(sizeFor({ width: 1920, height: 804 }, '1080p', true)).toEqual({ width: 1920, height: 804 });
    expect(sizeFor({ width: 1920, height: 804 }, '1440p', true)).toBeNull();
    expect(boxOf('480p')).toEqual({ width: 854, height: 480 });
  });

  it('fits a portrait video by both dimensions, or scales it by height alone when the library says so', () => {
    const portrait = { width: 1080, height: 1920 };
    expect(sizeFor(portrait, '720p', true)).toEqual({ width: 406, height: 720 });
    expect(sizeFor(portrait, '1440p', true)).toEqual({ width: 810, height: 1440 });
    expect(sizeFor(portrait, '2160p', true)).toBeNull();
    expect(sizeFor(portrait, '720p', false)).toEqual({ width: 406, height: 720 });
    expect(sizeFor({ width: 1920, height: 804 }, '1080p', false)).toBeNull();
    expect(sizedResolutions(portrait, librarySettings({ EnabledResolutions: null })).map((r) => r.label)).toEqual([
      '240p',
      '360p',
      '480p',
      '720p',
      '1080p',
      '1440p',
    ]);
  });

  it("asks each rendition's encoder for the library's bitrate of that resolution", () => {
    const p = plan(clip(1280, 720), { EnabledResolutions: '360p,720p', Bitrate360p: 777, Bitrate720p: 3333 });
    expect(p.renditions.map((r) => r.bitrateKbps)).toEqual([777, 3333]);
    const step = p.steps.find((s) => s.name === '720p x264')!;
    expect(step.args.slice(step.args.indexOf('-b:v'), step.args.indexOf('-b:v') + 6)).toEqual(['-b:v', '3333k', '-maxrate', '4000k', '-bufsize', '6666k']);
  });
});

describe('codecs', () => {
  it('sets the lowest H.264 level the picture fits, and announces it', () => {
    expect([h264Level(426, 240, 30), h264Level(640, 360, 30), h264Level(1280, 720, 30), h264Level(1920, 1080, 30), h264Level(1920, 1080, 60)]).toEqual([
      21, 30, 31, 40, 42,
    ]);
    expect([h264Level(2560, 1440, 30), h264Level(3840, 2160, 30), h264Level(3840, 2160, 120), h264Level(7680, 4320, 30)]).toEqual([50, 51, 52, 52]);
    const [small, large] = plan(clip(1280, 720), { EnabledResolutions: '240p,720p' }).renditions;
    expect([small!.codecs, large!.codecs]).toEqual(['avc1.640015,mp4a.40.2', 'avc1.64001f,mp4a.40.2']);
    const step = plan(clip(1280, 720, { hasAudio: false }), { EnabledResolutions: '720p' });
    expect(step.renditions[0]!.codecs).toBe('avc1.64001f');
    expect(step.steps[1]!.args.slice(step.steps[1]!.args.indexOf('-level:v'), step.steps[1]!.args.indexOf('-level:v') + 2)).toEqual(['-level:v', '3.1']);
  });

  it('makes x264 always, and each other asked codec the encoder has', () => {
    expect(chooseCodecs({ OutputCodecs: 'vp9,av1' }, ALL_ENCODERS)).toEqual({ codecs: ['x264', 'vp9', 'av1'], unavailable: [] });
    expect(chooseCodecs({ OutputCodecs: 'hevc,vp9' }, X264_ONLY)).toEqual({ codecs: ['x264'], unavailable: ['vp9', 'hevc'] });
    expect(chooseCodecs({ OutputCodecs: null }, ALL_ENCODERS).codecs).toEqual(['x264']);
  });

  it('puts other codecs in a folder of their own, with fragmented MP4 segments, x264 renditions first', () => {
    const p = plan(clip(640, 360), { EnabledResolutions: '240p,360p', OutputCodecs: 'x264,av1', EnableMP4Fallback: false });
    expect(p.renditions.map((r) => r.playlist)).toEqual(['240p/video.m3u8', '360p/video.m3u8', '240p/av1/video.m3u8', '360p/av1/video.m3u8']);
    const av1 = p.steps.find((s) => s.name === '360p av1')!;
    expect(av1.cwd).toBe('360p/av1');
    expect(av1.args).toEqual(expect.arrayContaining(['libaom-av1', '-strict', 'experimental', 'fmp4', 'video%d.m4s']));
    expect(p.files).toContain('360p/av1/init.mp4');
    const x264 = p.steps.find((s) => s.name === '360p x264')!;
    expect(x264.args).not.toContain('fmp4');
    expect(x264.args).not.toContain('-strict');
  });

  it('reports the asked codecs this ffmpeg lacks', () => {
    expect(plan(clip(640, 360), { OutputCodecs: 'x264,hevc' }, X264_ONLY).unavailableCodecs).toEqual(['hevc']);
  });
});

describe('steps and files', () => {
  it("lays out the platform's files: master, renditions, MP4 fallbacks, thumbnails, preview", () => {
    const p = plan(clip(640, 360), { EnabledResolutions: '240p,360p', EnableMP4Fallback: true });
    expect(p.files).toEqual([
      'playlist.m3u8',
      'thumbnail.jpg',
      'thumbnail_1.jpg',
      'thumbnail_2.jpg',
      'thumbnail_3.jpg',
      'preview.webp',
      '240p/video.m3u8',
      'play_240p.mp4',
      '360p/video.m3u8',
      'play_360p.mp4',
    ]);
    expect(p.steps.map((s) => s.name)).toEqual(['thumbnails', '240p x264', '240p mp4', '360p x264', '360p mp4']);
    // A rendition is reported once its MP4 is written too.
    expect(p.steps.map((s) => s.finishes?.label ?? null)).toEqual([null, null, '240p', null, '360p']);
    expect(p.steps.reduce((sum, s) => sum + s.weight, 0)).toBeCloseTo(1, 9);
    expect(p.thumbnailCount).toBe(3);
  });

  it('leaves out MP4 fallbacks when the library does not ask, the preview when there is no WebP encoder, artwork when told', () => {
    const p = plan(clip(640, 360), { EnabledResolutions: '360p', EnableMP4Fallback: false }, X264_ONLY);
    expect(p.files).toEqual(['playlist.m3u8', 'thumbnail.jpg', 'thumbnail_1.jpg', 'thumbnail_2.jpg', 'thumbnail_3.jpg', '360p/video.m3u8']);
    const bare = buildEncodePlan({
      source: '/in/s',
      outputDir: '/out',
      info: clip(640, 360),
      settings: librarySettings({ EnabledResolutions: '360p' }),
      capabilities: ALL_ENCODERS,
      skipArtwork: true,
    });
    expect(bare.steps.map((s) => s.name)).toEqual(['360p x264', '360p mp4']);
    expect(bare.thumbnailCount).toBe(0);
  });

  it('says whether the caller keeps the original', () => {
    expect(plan(clip(640, 360), { KeepOriginalFiles: true }).keepOriginal).toBe(true);
    expect(plan(clip(640, 360), { KeepOriginalFiles: false }).keepOriginal).toBe(false);
  });

  it('burns the watermark in at its place and size when the library has one and a file is given', () => {
    const settings = {
      HasWatermark: true,
      WatermarkPositionLeft: 70,
      WatermarkPositionTop: 10,
      WatermarkWidth: 12,
      WatermarkHeight: 20,
      EnabledResolutions: '360p',
    };
    const marked = plan(clip(640, 360), settings, ALL_ENCODERS, { watermarkFile: '/in/mark.png' }).steps.find((s) => s.name === '360p x264')!;
    expect(marked.args).toContain('file:/in/mark.png');
    const graph = marked.args[marked.args.indexOf('-filter_complex') + 1]!;
    expect(graph).toContain('scale=w=77:h=72:force_original_aspect_ratio=decrease');
    expect(graph).toContain("overlay=x='max(0,min(448,W-w))':y='max(0,min(36,H-h))'");
    const unmarked = plan(clip(640, 360), { ...settings, HasWatermark: false }, ALL_ENCODERS, { watermarkFile: '/in/mark.png' }).steps[1]!;
    expect(unmarked.args).not.toContain('file:/in/mark.png');
  });

  it('reads sources through the file protocol only, named so no part reads as an option', () => {
    const p = plan(clip(640, 360), {}, ALL_ENCODERS);
    for (const step of p.steps.filter((s) => s.name.endsWith('x264') || s.name === 'thumbnails')) {
      const at = step.args.indexOf('file:/in/source.mov');
      expect(step.args.slice(at - 3, at)).toEqual(['-protocol_whitelist', 'file', '-i']);
    }
  });

  it('takes the thumbnail at the asked time, kept inside the video, and numbers one per second up to 10', () => {
    expect(thumbnailSeconds(clip(640, 360), 1500)).toBe(1.5);
    expect(thumbnailSeconds(clip(640, 360), 60_000)).toBe(2);
    expect(thumbnailSeconds(clip(640, 360, { durationSeconds: 0.5 }), 400)).toBe(0);
    expect(thumbnailSeconds(clip(640, 360), null)).toBe(0);
    expect([0.4, 3.9, 10, 3600].map(thumbnailCountFor)).toEqual([1, 3, 10, 10]);
    const artwork = plan(clip(640, 360), {}, ALL_ENCODERS, { thumbnailTimeMs: 1200 }).steps[0]!;
    expect(artwork.args.slice(artwork.args.indexOf('-ss'), artwork.args.indexOf('-ss') + 2)).toEqual(['-ss', '1.2']);
  });

  it('caps the frame rate at 60 and leaves the audio out of a silent source', () => {
    const fast = plan(clip(640, 360, { framerate: 120, hasAudio: false }), { EnabledResolutions: '360p' }).steps[1]!;
    expect(fast.args[fast.args.indexOf('-filter_complex') + 1]).toContain(',fps=60');
    expect(fast.args).not.toContain('0:a:0');
    expect(fast.args[fast.args.indexOf('-g') + 1]).toBe('120');
  });
});
