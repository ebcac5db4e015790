/**
 * Which renditions a source gets, and at which size: pure rules, unit-tested.
 *
 * A resolution names a 16:9 box (`720p` is 1280x720). With `ScaleVideoUsingBothDimensions` (the
 * default) the picture is fitted into the box, aspect kept; a resolution is made when the fit does
 * not enlarge the source (a 2.39:1 film of 1920x804 gets `1080p` at 1920x804; a portrait 1080x1920
 * video gets up to `1440p`, at 810x1440). Without it, the resolution is the output's height and the
 * width follows the aspect; a resolution taller than the source is not made. Sizes are even
 * (what 4:2:0 video needs).
 *
 * A source smaller than every enabled resolution still gets one rendition: the smallest enabled
 * resolution, at the source's own size (never enlarged), so every video plays.
 */
import { OUTPUT_CODECS, VIDEO_RESOLUTIONS } from '../schemas/video-library.js';
import { codecsOf } from './playlists.js';
import type { EncoderCapabilities, EncodingSettings, MediaInfo, OutputCodec, Rendition, ResolutionLabel } from './types.js';
import { h264Level } from './video-encoders.js';

export interface Size {
  width: number;
  height: number;
}

export const heightOf = (label: ResolutionLabel): number => Number.parseInt(label, 10);

/** The nearest even number, at least 2. */
export const even = (value: number): number => Math.max(2, Math.round(value / 2) * 2);
/** The even number at or below `value`, at least 2: a size that never exceeds the source's. */
const evenBelow = (value: number): number => Math.max(2, Math.floor(value / 2) * 2);

/** The 16:9 box a resolution names: `480p` → 854x480. */
export function boxOf(label: ResolutionLabel): Size {
  const height = heightOf(label);
  return { width: even((height * 16) / 9), height };
}

/** `source` fitted into `box`, aspect kept, even, never larger than the source; null when the fit would enlarge it. */
export function fitInto(source: Size, box: Size): Size | null {
  const scale = Math.min(box.width / source.width, box.height / source.height);
  if (scale > 1 + 1e-9) return null;
  return { width: Math.min(even(source.width * scale), evenBelow(source.width)), height: Math.min(even(source.height * scale), evenBelow(source.height)) };
}

/** The size of a resolution's rendition of `source`, or null when it would be an enlargement. */
export function sizeFor(source: Size, label: ResolutionLabel, bothDimensions: boolean): Size | null {
  if (bothDimensions) return fitInto(source, boxOf(label));
  const height = heightOf(label);
  if (height > source.height) return null;
  return { width: Math.min(even((source.width * height) / source.height), evenBelow(source.width)), height };
}

/** A comma-separated setting as a list of known values, in their canonical order, without repeats. */
function listed<T extends string>(text: string | null, known: readonly T[]): T[] {
  const named = new Set((text ?? '').split(',').map((s) => s.trim()));
  return known.filter((value) => named.has(value));
}

/** The resolutions the library enables, smallest first; none listed (null or empty) means all of them. */
export function enabledResolutions(settings: Pick<EncodingSettings, 'EnabledResolutions'>): ResolutionLabel[] {
  const labels = listed(settings.EnabledResolutions, VIDEO_RESOLUTIONS);
  return labels.length > 0 ? labels : [...VIDEO_RESOLUTIONS];
}

/** The codecs to make: x264 always, then each other one the library asks for that this ffmpeg has. */
export function chooseCodecs(
  settings: Pick<EncodingSettings, 'OutputCodecs'>,
  capabilities: Pick<EncoderCapabilities, 'video'>,
): { codecs: OutputCodec[]; unavailable: OutputCodec[] } {
  const asked = listed(settings.OutputCodecs, OUTPUT_CODECS).filter((codec) => codec !== 'x264');
  return {
    codecs: ['x264', ...asked.filter((codec) => capabilities.video[codec] !== null)],
    unavailable: asked.filter((codec) => capabilities.video[codec] === null),
  };
}

export function bitrateOf(settings: EncodingSettings, label: ResolutionLabel): number {
  return settings[`Bitrate${label}`];
}

/** The resolutions a source gets, each with its size, smallest first (see the file's comment). */
export function sizedResolutions(info: Size, settings: EncodingSettings): { label: ResolutionLabel; size: Size }[] {
  const labels = enabledResolutions(settings);
  const sized = labels.flatMap((label) => {
    const size = sizeFor(info, label, settings.ScaleVideoUsingBothDimensions);
    return size ? [{ label, size }] : [];
  });
  if (sized.length > 0) return sized;
  return [{ label: labels[0]!, size: { width: evenBelow(info.width), height: evenBelow(info.height) } }];
}

/** Every rendition of the plan: x264 at each resolution smallest first, then each other codec likewise. */
export function chooseRenditions(info: MediaInfo, settings: EncodingSettings, codecs: OutputCodec[]): Rendition[] {
  const sized = sizedResolutions(info, settings);
  return codecs.flatMap((codec) =>
    sized.map(({ label, size }) => ({
      label,
      codec,
      width: size.width,
      height: size.height,
      bitrateKbps: bitrateOf(settings, label),
      playlist: codec === 'x264' ? `${label}/video.m3u8` : `${label}/${codec}/video.m3u8`,
      mp4: codec === 'x264' && settings.EnableMP4Fallback ? `play_${label}.mp4` : null,
      codecs:
        codec === 'x264'
          ? codecsOf([
              { codec_name: 'h264', profile: 'High', level: h264Level(size.width, size.height, info.framerate) },
              ...(info.hasAudio ? [{ codec_name: 'aac' }] : []),
            ])
          : null,
    })),
  );
}
