/**
 * The documents of the media toolkit (probing and encoding with ffmpeg): what a probe finds, what
 * the chosen ffmpeg can do, and an encode plan. Plain data, shared by the files of src/media/.
 */
import type { OUTPUT_CODECS, VIDEO_RESOLUTIONS, VideoLibraryT } from '../schemas/video-library.js';

export type OutputCodec = (typeof OUTPUT_CODECS)[number];
export type ResolutionLabel = (typeof VIDEO_RESOLUTIONS)[number];

/** What ffprobe tells of a source file. Width and height are as displayed, rotation applied. */
export interface MediaInfo {
  durationSeconds: number;
  width: number;
  height: number;
  framerate: number;
  /** Clockwise degrees the stored picture is turned for display: 0, 90, 180 or 270. */
  rotation: number;
  hasAudio: boolean;
  /** ffprobe's name of the video codec, e.g. `h264`. */
  videoCodec: string;
}

/** Where the binaries came from: named by the configuration, found on PATH, or the npm packages' static builds. */
export type ToolsOrigin = 'configured' | 'system' | 'bundled';

/** What the chosen ffmpeg can encode, learnt once from `ffmpeg -encoders`. */
export interface EncoderCapabilities {
  /** The first line of `ffmpeg -version`, e.g. `ffmpeg version 5.1.6-0+deb12u1`. */
  version: string;
  /** The ffmpeg encoder used for each output codec, or null when this ffmpeg has none. */
  video: Record<OutputCodec, string | null>;
  /** Encoders marked experimental (they need `-strict experimental`). */
  experimental: string[];
  /** The animated WebP encoder (`libwebp_anim`, or `libwebp` in builds that animate with it), or null. */
  webp: string | null;
}

/** One binary: its path, the environment additions it needs (merged into process.env), and where it came from. */
export interface Tool {
  path: string;
  env: Record<string, string>;
  origin: ToolsOrigin;
}

/** The ffmpeg and ffprobe in use, and what the ffmpeg can do. Built once (binaries.ts). */
export interface MediaTools {
  ffmpeg: Tool;
  ffprobe: Tool;
  capabilities: EncoderCapabilities;
  /** One line for the log: which ffmpeg, its version, and the encoder of each codec. */
  description: string;
}

/** The library settings an encoding reads (names and meanings from the video library schema). */
export type EncodingSettings = Pick<
  VideoLibraryT,
  | 'EnabledResolutions'
  | 'Bitrate240p'
  | 'Bitrate360p'
  | 'Bitrate480p'
  | 'Bitrate720p'
  | 'Bitrate1080p'
  | 'Bitrate1440p'
  | 'Bitrate2160p'
  | 'OutputCodecs'
  | 'EnableMP4Fallback'
  | 'RemoveMetadataFromFallbackVideos'
  | 'KeepOriginalFiles'
  | 'HasWatermark'
  | 'WatermarkPositionLeft'
  | 'WatermarkPositionTop'
  | 'WatermarkWidth'
  | 'WatermarkHeight'
  | 'ScaleVideoUsingBothDimensions'
>;

/** One picture size of the output, in one codec. */
export interface Rendition {
  /** The library's name for it, e.g. `720p`: the height of its box (see renditions.ts). */
  label: ResolutionLabel;
  codec: OutputCodec;
  width: number;
  height: number;
  /** Video bitrate asked of the encoder, in kbit/s (the library's `Bitrate…`). */
  bitrateKbps: number;
  /** Its media playlist, relative to the output directory: `720p/video.m3u8` (x264) or `720p/vp9/video.m3u8`. */
  playlist: string;
  /** The MP4 fallback made from it (x264 only, when the library asks): `play_720p.mp4`. */
  mp4: string | null;
  /** Its RFC 6381 codecs when the plan decides them (x264: profile and level are set), else null: read from the output. */
  codecs: string | null;
}

/** One ffmpeg run of a plan. */
export interface EncodeStep {
  /** What it makes, for logs and errors: `thumbnails`, `720p x264`, `720p mp4`. */
  name: string;
  /** ffmpeg's arguments (no shell), paths relative to `cwd`. */
  args: string[];
  /** Directory ffmpeg runs in, relative to the output directory ('' for the directory itself). */
  cwd: string;
  /** Seconds of media the step reads, for the `-progress` fraction. */
  mediaSeconds: number;
  /** Share of the whole plan's work, for the overall fraction (the weights of a plan sum to 1). */
  weight: number;
  /** The rendition this step finishes, if any: reported once the step has run. */
  finishes: Rendition | null;
}

/** Everything an encode does, decided before any of it runs (plan.ts), run by run.ts. */
export interface EncodePlan {
  source: string;
  /** Where every output goes: a fresh directory the caller made and later copies from. */
  outputDir: string;
  renditions: Rendition[];
  steps: EncodeStep[];
  /** Files the plan writes besides the renditions' segments, relative to the output directory. */
  files: string[];
  thumbnailCount: number;
  /** Codecs the library asks for that this ffmpeg cannot encode (left out, with x264 always in). */
  unavailableCodecs: OutputCodec[];
  /** True when the library keeps originals: the caller stores the source as `original` (the plan leaves it be). */
  keepOriginal: boolean;
}

/** A finished rendition, as run.ts reports it. */
export interface FinishedRendition extends Rendition {
  /** Peak and average bits per second of its segments, as the master playlist announces them. */
  bandwidth: number;
  averageBandwidth: number;
  codecs: string;
}

export interface EncodeResult {
  renditions: FinishedRendition[];
  /** Every file written, relative to the output directory, with its size. */
  files: { path: string; bytes: number }[];
}
