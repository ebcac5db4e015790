/**
 * ffmpeg's video options for each output codec: the encoder this ffmpeg has, tuned for speed (a
 * local server encodes while its developer waits), at the library's bitrate with a capped peak, a
 * keyframe every two seconds so that every HLS segment starts with one.
 */
import type { EncoderCapabilities, OutputCodec } from './types.js';

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
export function videoEncoderArgs(codec: OutputCodec, capabilities: EncoderCapabilities, bitrateKbps: number, framerate: number): string[] {
  const encoder = capabilities.video[codec];
  if (encoder === null) throw new Error(`This ffmpeg has no encoder for ${codec}.`);
  const gop = Math.max(1, Math.round(Math.min(framerate, 60) * KEYFRAME_SECONDS));
  return [
    '-c:v',
    encoder,
    ...(TUNING[encoder] ?? []),
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
