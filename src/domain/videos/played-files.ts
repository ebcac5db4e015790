/**
 * Which files of a video's folder say that it was watched, read from the path a player fetched
 * through the library's pull zone, in the encoder's layout (src/media/plan.ts): the master
 * playlist, or an MP4 fallback read from its first byte, starts a view; a media segment
 * (`{res}/video{N}.ts`, `{res}/{codec}/video{N}.m4s`) is the N-th stretch of HLS_SEGMENT_SECONDS
 * of the video, whatever the rendition. Pure.
 */
import { HLS_SEGMENT_SECONDS } from '../../media/video-encoders.js';

export type PlayedFile = { guid: string; kind: 'start' } | { guid: string; kind: 'segment'; index: number };

const GUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const PLAYLIST = new RegExp(`^/(${GUID})/playlist\\.m3u8$`);
const MP4 = new RegExp(`^/(${GUID})/play_\\d{3,4}p\\.mp4$`);
const SEGMENT = new RegExp(`^/(${GUID})/\\d{3,4}p/(?:[a-z0-9]+/)?video(\\d{1,6})\\.(?:ts|m4s)$`);
/** A Range that starts at the first byte: `bytes=0-` or `bytes=0-1023`. */
const FROM_FIRST_BYTE = /^bytes=0-\d*$/;

/** What a path of the pull zone (the file's path, token removed) tells of playback; `range` is the request's Range header. */
export function playedFile(path: string, range: string | undefined): PlayedFile | undefined {
  const playlist = PLAYLIST.exec(path);
  if (playlist) return { guid: playlist[1]!, kind: 'start' };
  const mp4 = MP4.exec(path);
  // A player seeking in an MP4 asks for later bytes: only the read from the start is a new view.
  if (mp4) return range === undefined || FROM_FIRST_BYTE.test(range.trim()) ? { guid: mp4[1]!, kind: 'start' } : undefined;
  const segment = SEGMENT.exec(path);
  if (segment) return { guid: segment[1]!, kind: 'segment', index: Number(segment[2]) };
  return undefined;
}

/**
 * The seconds of the video segment `index` covers, `[from, to)`: HLS_SEGMENT_SECONDS each (the
 * encoder puts a keyframe every two seconds), the last one cut at the video's length (whole
 * seconds; 0 when not known yet). Empty past the end.
 */
export function segmentSeconds(index: number, lengthSeconds: number): { from: number; to: number } {
  const from = index * HLS_SEGMENT_SECONDS;
  const end = from + HLS_SEGMENT_SECONDS;
  const to = lengthSeconds > 0 ? Math.max(from, Math.min(end, lengthSeconds)) : end;
  return { from, to };
}
