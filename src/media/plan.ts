/**
 * The encode plan: from what the probe found, the library's settings and what this ffmpeg can do,
 * every ffmpeg run and every file, before anything runs. Pure (no I/O), so each decision is tested
 * without ffmpeg. The output directory gets the platform's layout:
 *
 *   playlist.m3u8                 master playlist, written by run.ts as renditions finish
 *   {res}/video.m3u8, video0.ts…  x264 rendition (HLS, MPEG-TS segments)
 *   {res}/{codec}/video.m3u8…     vp9, hevc, av1 renditions (HLS, fragmented MP4 segments)
 *   play_{res}.mp4                MP4 fallback of each x264 rendition (EnableMP4Fallback)
 *   thumbnail.jpg                 at the video's thumbnail time (default 0), the largest rendition's size
 *   thumbnail_1.jpg … _N.jpg      N pictures spread over the video, one per second up to 10
 *   preview.webp                  an animated overview: up to 40 frames spread over the video, at 10 fps
 *
 * One ffmpeg run per rendition, smallest first, so resolutions become available one after another;
 * an MP4 fallback is its rendition's segments copied into one file (no second encode).
 */
import { SOURCE_INPUT_OPTIONS, sourceUrl } from './probe.js';
import { chooseCodecs, chooseRenditions, fitInto, type Size } from './renditions.js';
import type { EncodePlan, EncodeStep, EncoderCapabilities, EncodingSettings, MediaInfo, Rendition } from './types.js';
import { HLS_SEGMENT_SECONDS, videoEncoderArgs } from './video-encoders.js';

export interface PlanInput {
  /** The source file on local disk. */
  source: string;
  /** A fresh local directory for the outputs. */
  outputDir: string;
  info: MediaInfo;
  settings: EncodingSettings;
  capabilities: EncoderCapabilities;
  /** The library's watermark image on local disk; burnt in when the library `HasWatermark`. */
  watermarkFile?: string | null;
  /** The video's `thumbnailTime`, in milliseconds. */
  thumbnailTimeMs?: number | null;
  /** Leave out the thumbnails and the preview (a re-encode that keeps them); default false. */
  skipArtwork?: boolean;
}

/** Every run: quiet but for errors, progress as key=value lines on stdout, overwrite, no stdin. */
const FFMPEG_COMMON = ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-progress', 'pipe:1', '-nostats'];
const AUDIO = ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'];
export const MASTER_PLAYLIST = 'playlist.m3u8';
const NUMBERED_THUMBNAILS_MAX = 10;
const PREVIEW_FRAMES = 40;
const PREVIEW_FPS = 10;
const NUMBERED_BOX: Size = { width: 640, height: 360 };
const PREVIEW_BOX: Size = { width: 320, height: 180 };
/** Relative costs, for the progress fraction only: per second of 640x360 output, x264 = 1. */
const CODEC_COST = { x264: 1, vp9: 1.5, hevc: 3, av1: 6 };
const PIXELS_UNIT = 640 * 360;

const dirOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
const baseOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const fixed = (value: number) => String(Math.round(value * 1e6) / 1e6);

/** The watermark's part of the filter graph, or null when there is none to burn in. */
function watermarkFilter(settings: EncodingSettings, size: Size): string | null {
  if (!settings.HasWatermark || settings.WatermarkWidth <= 0 || settings.WatermarkHeight <= 0) return null;
  const box = {
    width: Math.max(2, Math.round((size.width * Math.min(settings.WatermarkWidth, 100)) / 100)),
    height: Math.max(2, Math.round((size.height * Math.min(settings.WatermarkHeight, 100)) / 100)),
  };
  const x = Math.round((size.width * Math.max(0, settings.WatermarkPositionLeft)) / 100);
  const y = Math.round((size.height * Math.max(0, settings.WatermarkPositionTop)) / 100);
  // The image fits its box, aspect kept; near the edges it moves inwards rather than leave the frame.
  return `[1:v]scale=w=${box.width}:h=${box.height}:force_original_aspect_ratio=decrease[mark];[base][mark]overlay=x='max(0,min(${x},W-w))':y='max(0,min(${y},H-h))'`;
}

function renditionStep(input: PlanInput, rendition: Rendition): EncodeStep {
  const { info, settings } = input;
  const fmp4 = rendition.codec !== 'x264';
  const mark = input.watermarkFile ? watermarkFilter(settings, rendition) : null;
  const fps = info.framerate > 60 ? ',fps=60' : '';
  const scale = `[0:v]scale=${rendition.width}:${rendition.height},setsar=1${fps}`;
  const graph = mark ? `${scale}[base];${mark},format=yuv420p[v]` : `${scale},format=yuv420p[v]`;
  const args = [
    ...FFMPEG_COMMON,
    ...SOURCE_INPUT_OPTIONS,
    '-i',
    sourceUrl(input.source),
    ...(mark ? [...SOURCE_INPUT_OPTIONS, '-i', sourceUrl(input.watermarkFile!)] : []),
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    ...(info.hasAudio ? ['-map', '0:a:0', ...AUDIO] : []),
    ...videoEncoderArgs(rendition.codec, input.capabilities, rendition, info.framerate),
    '-f',
    'hls',
    '-hls_time',
    String(HLS_SEGMENT_SECONDS),
    '-hls_playlist_type',
    'vod',
    ...(fmp4
      ? ['-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', 'video%d.m4s']
      : ['-hls_segment_filename', 'video%d.ts']),
    baseOf(rendition.playlist),
  ];
  const pixels = (rendition.width * rendition.height) / PIXELS_UNIT;
  const decoding = (info.width * info.height) / PIXELS_UNIT / 4;
  return {
    name: `${rendition.label} ${rendition.codec}`,
    args,
    cwd: dirOf(rendition.playlist),
    mediaSeconds: info.durationSeconds,
    weight: info.durationSeconds * (pixels * CODEC_COST[rendition.codec] + decoding),
    finishes: rendition.mp4 ? null : rendition,
  };
}

function mp4Step(input: PlanInput, rendition: Rendition & { mp4: string }): EncodeStep {
  return {
    name: `${rendition.label} mp4`,
    args: [
      ...FFMPEG_COMMON,
      ...SOURCE_INPUT_OPTIONS,
      '-i',
      rendition.playlist,
      '-map',
      '0',
      '-c',
      'copy',
      ...(input.settings.RemoveMetadataFromFallbackVideos ? ['-map_metadata', '-1'] : []),
      '-movflags',
      '+faststart',
      rendition.mp4,
    ],
    cwd: '',
    mediaSeconds: input.info.durationSeconds,
    weight: input.info.durationSeconds * 0.05,
    finishes: rendition,
  };
}

/** How many numbered thumbnails a video gets: one per whole second, between 1 and 10. */
export const thumbnailCountFor = (durationSeconds: number) => Math.min(NUMBERED_THUMBNAILS_MAX, Math.max(1, Math.floor(durationSeconds)));

/** Where the main thumbnail is taken: the asked time, kept a second inside the video. */
export function thumbnailSeconds(info: MediaInfo, thumbnailTimeMs: number | null | undefined): number {
  const asked = Math.max(0, (thumbnailTimeMs ?? 0) / 1000);
  return Math.min(asked, Math.max(0, info.durationSeconds - 1));
}

/** The thumbnails and the preview, in one run: two reads of the source (one seeks to the thumbnail time). */
function artworkStep(input: PlanInput, thumbnailSize: Size, count: number): { step: EncodeStep; files: string[] } {
  const { info, capabilities } = input;
  const duration = info.durationSeconds;
  const numbered = fitInto(info, NUMBERED_BOX) ?? thumbnailSize;
  const preview = fitInto(info, PREVIEW_BOX) ?? thumbnailSize;
  const previewFrames = Math.max(1, Math.min(PREVIEW_FRAMES, Math.floor(duration * info.framerate)));
  const webp = capabilities.webp;
  const source = [...SOURCE_INPUT_OPTIONS, '-i', sourceUrl(input.source)];
  const graph = [
    `[0:v]scale=${thumbnailSize.width}:${thumbnailSize.height},setsar=1[thumb]`,
    `[1:v]${webp ? 'split=2[a][b];[a]' : ''}fps=${fixed(count / duration)},scale=${numbered.width}:${numbered.height},setsar=1[numbered]`,
    ...(webp ? [`[b]fps=${fixed(previewFrames / duration)},scale=${preview.width}:${preview.height},setsar=1,setpts=N/(${PREVIEW_FPS}*TB)[preview]`] : []),
  ].join(';');
  const args = [
    ...FFMPEG_COMMON,
    '-ss',
    fixed(thumbnailSeconds(info, input.thumbnailTimeMs)),
    ...source,
    ...source,
    '-filter_complex',
    graph,
    ...['-map', '[thumb]', '-frames:v', '1', '-q:v', '3', 'thumbnail.jpg'],
    ...['-map', '[numbered]', '-frames:v', String(count), '-q:v', '4', '-start_number', '1', 'thumbnail_%d.jpg'],
    ...(webp
      ? ['-map', '[preview]', '-frames:v', String(previewFrames), '-r', String(PREVIEW_FPS), '-c:v', webp, '-loop', '0', '-q:v', '60', 'preview.webp']
      : []),
  ];
  const files = ['thumbnail.jpg', ...Array.from({ length: count }, (_, i) => `thumbnail_${i + 1}.jpg`), ...(webp ? ['preview.webp'] : [])];
  const decoding = (info.width * info.height) / PIXELS_UNIT / 2;
  return { step: { name: 'thumbnails', args, cwd: '', mediaSeconds: duration, weight: duration * (decoding + 0.2), finishes: null }, files };
}

export function buildEncodePlan(input: PlanInput): EncodePlan {
  const { codecs, unavailable } = chooseCodecs(input.settings, input.capabilities);
  const renditions = chooseRenditions(input.info, input.settings, codecs);
  const steps: EncodeStep[] = [];
  const files: string[] = [MASTER_PLAYLIST];
  const thumbnailCount = input.skipArtwork ? 0 : thumbnailCountFor(input.info.durationSeconds);
  if (!input.skipArtwork) {
    const largest = renditions.filter((r) => r.codec === 'x264').at(-1)!;
    const artwork = artworkStep(input, largest, thumbnailCount);
    steps.push(artwork.step);
    files.push(...artwork.files);
  }
  for (const rendition of renditions) {
    steps.push(renditionStep(input, rendition));
    files.push(rendition.playlist);
    if (rendition.codec !== 'x264') files.push(`${dirOf(rendition.playlist)}/init.mp4`);
    if (rendition.mp4) {
      steps.push(mp4Step(input, { ...rendition, mp4: rendition.mp4 }));
      files.push(rendition.mp4);
    }
  }
  const total = steps.reduce((sum, step) => sum + step.weight, 0);
  for (const step of steps) step.weight = total > 0 ? step.weight / total : 1 / steps.length;
  return {
    source: input.source,
    outputDir: input.outputDir,
    renditions,
    steps,
    files,
    thumbnailCount,
    unavailableCodecs: unavailable,
    keepOriginal: input.settings.KeepOriginalFiles,
  };
}
