/**
 * What a source file holds, asked of ffprobe: length, displayed size, frame rate, rotation, audio,
 * codec. A file ffprobe cannot read, or that is no video, is an UnreadableMediaError with a message
 * for the uploader (never the server's paths).
 *
 * Sources come from users, so ffprobe and ffmpeg read them through the `file` protocol only (no
 * network, whatever the file says), and playlist formats (HLS, DASH) are refused: a "video" that is a
 * playlist would make ffmpeg read other files of the machine into the output.
 */
import { runTool } from './child.js';
import { MediaProcessError, UnreadableMediaError } from './errors.js';
import type { MediaInfo, MediaTools } from './types.js';

/** Input options of every read of a source: local file only. */
export const SOURCE_INPUT_OPTIONS = ['-protocol_whitelist', 'file'];
/** How a source path is named to ffmpeg: `file:` first, so no part of it reads as a protocol or an option. */
export const sourceUrl = (path: string) => `file:${path}`;
/** Demuxers whose files name other files or addresses to read. */
const PLAYLIST_FORMATS = new Set(['hls', 'applehttp', 'dash', 'concat', 'ffconcat']);

interface ProbedStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
  disposition?: { attached_pic?: number };
}

interface ProbeOutput {
  streams?: ProbedStream[];
  format?: { duration?: string; format_name?: string };
}

/** `30000/1001` → 29.97; `0/0` or nonsense → 0. */
function rate(fraction: string | undefined): number {
  const [num, den] = (fraction ?? '').split('/').map(Number);
  if (!num || !den || !Number.isFinite(num / den)) return 0;
  return Math.round((num / den) * 1000) / 1000;
}

/**
 * Clockwise degrees the picture is turned for display, a multiple of 90: the `rotate` tag where
 * ffprobe gives one (older versions), else from the display matrix, whose `rotation` ffprobe
 * reports counter-clockwise.
 */
export function rotationOf(stream: ProbedStream): number {
  const tag = stream.tags?.['rotate'];
  const matrix = stream.side_data_list?.find((s) => s.side_data_type === 'Display Matrix')?.rotation;
  const degrees = tag !== undefined ? Number(tag) : matrix !== undefined ? -matrix : 0;
  if (!Number.isFinite(degrees)) return 0;
  return (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
}

/** Reads ffprobe's JSON (`-show_format -show_streams`) into MediaInfo; throws UnreadableMediaError for what is no video. */
export function parseProbe(json: string): MediaInfo {
  let output: ProbeOutput;
  try {
    output = JSON.parse(json) as ProbeOutput;
  } catch {
    throw new UnreadableMediaError('The file could not be read as media.');
  }
  const formatName = output.format?.format_name ?? '';
  if (formatName.split(',').some((name) => PLAYLIST_FORMATS.has(name))) {
    throw new UnreadableMediaError(`The file is a playlist (${formatName}), not a video.`);
  }
  const streams = output.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  if (!video) throw new UnreadableMediaError(streams.length > 0 ? 'The file has no video stream.' : 'The file holds no media stream.');
  const duration = Number(output.format?.duration ?? video.duration);
  if (!(duration > 0)) throw new UnreadableMediaError('The file has no duration: it is not a video (a still image?).');
  const codedWidth = video.width ?? 0;
  const codedHeight = video.height ?? 0;
  if (codedWidth <= 0 || codedHeight <= 0) throw new UnreadableMediaError('The video stream has no picture size.');
  const framerate = rate(video.avg_frame_rate) || rate(video.r_frame_rate);
  if (framerate <= 0) throw new UnreadableMediaError('The video stream has no frame rate.');
  const rotation = rotationOf(video);
  const turned = rotation === 90 || rotation === 270;
  return {
    durationSeconds: duration,
    width: turned ? codedHeight : codedWidth,
    height: turned ? codedWidth : codedHeight,
    framerate,
    rotation,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    videoCodec: video.codec_name ?? 'unknown',
  };
}

/** Probes a local file. Throws UnreadableMediaError for a file that is no readable video. */
export async function probe(tools: MediaTools, file: string, signal?: AbortSignal): Promise<MediaInfo> {
  const url = sourceUrl(file);
  let json: string;
  try {
    json = await runTool({
      tool: tools.ffprobe.path,
      env: tools.ffprobe.env,
      args: ['-hide_banner', '-v', 'error', ...SOURCE_INPUT_OPTIONS, '-print_format', 'json', '-show_format', '-show_streams', url],
      step: 'probe',
      signal,
    });
  } catch (error) {
    if (!(error instanceof MediaProcessError) || error.signal !== null) throw error;
    // ffprobe's last words name the file by its path: the uploader gets them without it.
    const said =
      error.stderr
        .at(-1)
        ?.split(url)
        .join('the file')
        .replace(/^the file:\s*/, '') ?? 'unknown error';
    throw new UnreadableMediaError(`The file is not a video ffmpeg can read: ${said}.`, { cause: error });
  }
  return parseProbe(json);
}
