/**
 * ffmpeg's video options for each output codec: the encoder this ffmpeg has, tuned for speed (a
 * local server encodes while its developer waits), at the library's bitrate with a capped peak, a
 * keyframe every two seconds so that every HLS segment starts with one.
 */
import type { EncoderCapabilities, OutputCodec } from './types.js';

/** H.264 levels (level_idc) with their most macroblocks per frame and per second (ITU-T H.264, table A-1). */
const H264_LEVELS: [number, number, number][] = [
  [21, 792, 19800],
  [22, 1620, 20250],
  [30, 1620, 40500],
  [31, 3600, 108000],
  [32, 5120, 216000],
  [40, 8192, 245760],
  [42, 8704, 522240],
  [50, 22080, 589824],
  [51, 36864, 983040],
  [52, 36864, 2073600],
];

/**
 * The lowest H.264 level a picture size and frame rate fit (as level_idc: 31 is level 3.1). The
 * plan gives it to x264 and announces the same in CODECS, so nothing need be read back. (The
 * libraries' bitrates stay below every level's limit from 2.1 up for their resolutions.)
 */
export function h264Level(width: number, height: number, framerate: number): number {
  const frame = Math.ceil(width / 16) * Math.ceil(height / 16);
  const perSecond = frame * Math.min(framerate, 60);
  return H264_LEVELS.find(([, maxFrame, maxPerSecond]) => frame <= maxFrame && perSecond <= maxPerSecond)?.[0] ?? 52;
}

/** Seconds between keyframes; segments (HLS_SEGMENT_SECONDS) are a whole number of them. */
export const KEYFRAME_SECONDS = 2;
export const HLS_SEGMENT_SECONDS = 4;

/** Options of one encoder for speed, beside the bitrate (which every encoder takes alike). */
const TUNING: Record<string, string[]> = {
  libx264: ['-preset', 'veryfast', '-profile:v', 'high'],
  'libvpx-vp9': ['-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'],
  libx265: ['-preset', 'veryfast', '-tag:v', 'hvc1', '-x265-params', 'log-level=error'],
  libsvtav1: ['-preset', '10'],
  'libaom-av1': ['-cpu-used', '8', '-row-mt', '1'],
};

/** The video options of a rendition in `codec`, as this ffmpeg encodes it. */
export function videoEncoderArgs(
  codec: OutputCodec,
  capabilities: EncoderCapabilities,
  picture: { width: number; height: number; bitrateKbps: number },
  framerate: number,
): string[] {
  const { bitrateKbps } = picture;
  const encoder = capabilities.video[codec];
  if (encoder === null) throw new Error(`This ffmpeg has no encoder for ${codec}.`);
  const gop = Math.max(1, Math.round(Math.min(framerate, 60) * KEYFRAME_SECONDS));
  return [
    '-c:v',
    encoder,
    ...(TUNING[encoder] ?? []),
    ...(encoder === 'libx264' ? ['-level:v', (h264Level(picture.width, picture.height, framerate) / 10).toFixed(1)] : []),
    ...(capabilities.experimental.includes(encoder) ? ['-strict', 'experimental'] : []),
    '-b:v',
    `${bitrateKbps}k`,
    '-maxrate',
    `${Math.round(bitrateKbps * 1.2)}k`,
    '-bufsize',
    `${bitrateKbps * 2}k`,
    '-g',
    String(gop),
    '-force_key_frames',
    `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`,
  ];
}
