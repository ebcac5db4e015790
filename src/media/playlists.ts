/**
 * HLS text, pure: reading a rendition's media playlist (its segments and their durations), the
 * bandwidth a variant announces (measured from its segments' sizes), its RFC 6381 CODECS value
 * (from ffprobe's view of its first segment), and the master playlist that lists the variants and,
 * when the library asks, the captions.
 */
import type { FinishedRendition } from './types.js';

/** What the master playlist says of a variant: a finished rendition, or one read back from a stored master. */
export type MasterVariant = Pick<FinishedRendition, 'playlist' | 'width' | 'height' | 'bandwidth' | 'averageBandwidth' | 'codecs'>;

export interface MediaSegment {
  uri: string;
  seconds: number;
}

/** The segments of a media playlist, and its initialization section (`EXT-X-MAP`) if it has one. */
export function readMediaPlaylist(text: string): { segments: MediaSegment[]; map: string | null } {
  const segments: MediaSegment[] = [];
  let map: string | null = null;
  let seconds: number | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXTINF:')) seconds = Number.parseFloat(line.slice('#EXTINF:'.length));
    else if (line.startsWith('#EXT-X-MAP:')) map = /URI="([^"]+)"/.exec(line)?.[1] ?? null;
    else if (line !== '' && !line.startsWith('#') && seconds !== null) {
      segments.push({ uri: line, seconds });
      seconds = null;
    }
  }
  return { segments, map };
}

/** Peak and average bits per second over the segments (`bytes` of each, by URI). */
export function bandwidthOf(segments: MediaSegment[], bytes: (uri: string) => number): { peak: number; average: number } {
  let peak = 0;
  let totalBits = 0;
  let totalSeconds = 0;
  for (const segment of segments) {
    if (!(segment.seconds > 0)) continue;
    const bits = bytes(segment.uri) * 8;
    peak = Math.max(peak, bits / segment.seconds);
    totalBits += bits;
    totalSeconds += segment.seconds;
  }
  return { peak: Math.ceil(peak), average: totalSeconds > 0 ? Math.ceil(totalBits / totalSeconds) : 0 };
}

/** What ffprobe says of a stream, as much as CODECS needs. */
export interface StreamFacts {
  codec_name?: string;
  profile?: string;
  level?: number;
  width?: number;
  height?: number;
}

const H264_PROFILES: Record<string, string> = {
  'Constrained Baseline': '42e0',
  Baseline: '4200',
  Main: '4d00',
  High: '6400',
  'High 10': '6e00',
  'High 4:2:2': '7a00',
  'High 4:4:4 Predictive': 'f400',
};

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/** VP9 level by picture size (luma samples), from the VP9 levels table; ffprobe does not report it. */
function vp9Level(pixels: number): string {
  const limits: [number, string][] = [
    [36864, '10'],
    [73728, '11'],
    [122880, '20'],
    [245760, '21'],
    [552960, '30'],
    [983040, '31'],
    [2228224, '41'],
    [8912896, '51'],
  ];
  return limits.find(([max]) => pixels <= max)?.[1] ?? '61';
}

/** The RFC 6381 name of one stream, e.g. `avc1.64001e`, `hvc1.1.6.L93.B0`, `vp09.00.21.08`, `av01.0.04M.08`, `mp4a.40.2`. */
export function codecName(stream: StreamFacts): string | null {
  const level = stream.level ?? -1;
  switch (stream.codec_name) {
    case 'h264':
      return `avc1.${H264_PROFILES[stream.profile ?? ''] ?? '6400'}${hex2(Math.max(0, level))}`;
    case 'hevc':
      return stream.profile === 'Main 10' ? `hvc1.2.4.L${level}.B0` : `hvc1.1.6.L${level}.B0`;
    case 'vp9':
      return `vp09.00.${vp9Level((stream.width ?? 0) * (stream.height ?? 0))}.08`;
    case 'av1':
      return `av01.0.${String(Math.max(0, level)).padStart(2, '0')}M.08`;
    case 'aac':
      return 'mp4a.40.2';
    default:
      return null;
  }
}

/** The CODECS value of a variant from its streams: video first, then audio. */
export function codecsOf(streams: StreamFacts[]): string {
  return streams
    .map(codecName)
    .filter((name): name is string => name !== null)
    .join(',');
}

/** A captions track announced in the master playlist: `uri` is its own media playlist (see captionsPlaylist). */
export interface CaptionsTrack {
  language: string;
  name: string;
  uri: string;
}

const quoted = (value: string) => `"${value.replace(/["\r\n]/g, '')}"`;

/**
 * The master playlist over the variants (in the given order), with the captions tracks if any. To
 * change a stored one (captions added, a resolution removed), read it (readMasterPlaylist), filter,
 * and write it again.
 */
export function masterPlaylist(renditions: MasterVariant[], captions: CaptionsTrack[] = [], framerate?: number): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const track of captions) {
    lines.push(
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME=${quoted(track.name)},LANGUAGE=${quoted(track.language)},AUTOSELECT=YES,DEFAULT=NO,URI=${quoted(track.uri)}`,
    );
  }
  for (const r of renditions) {
    const attributes = [
      `BANDWIDTH=${r.bandwidth}`,
      `AVERAGE-BANDWIDTH=${r.averageBandwidth}`,
      `RESOLUTION=${r.width}x${r.height}`,
      `CODECS=${quoted(r.codecs)}`,
      ...(framerate ? [`FRAME-RATE=${Math.min(framerate, 60).toFixed(3)}`] : []),
      ...(captions.length > 0 ? ['SUBTITLES="subs"'] : []),
    ];
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, r.playlist);
  }
  return `${lines.join('\n')}\n`;
}

/** A master playlist's variants and frame rate (as masterPlaylist writes them); its captions tracks are left out. */
export function readMasterPlaylist(text: string): { variants: MasterVariant[]; framerate: number | undefined } {
  const variants: MasterVariant[] = [];
  let framerate: number | undefined;
  let pending: Omit<MasterVariant, 'playlist'> | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      const attribute = (name: string) => new RegExp(`(?:^|[:,])${name}=("[^"]*"|[^,]*)`).exec(line)?.[1]?.replace(/^"|"$/g, '');
      const [width, height] = (attribute('RESOLUTION') ?? '0x0').split('x').map(Number);
      const rate = Number(attribute('FRAME-RATE'));
      if (rate > 0) framerate = rate;
      pending = {
        width: width ?? 0,
        height: height ?? 0,
        bandwidth: Number(attribute('BANDWIDTH') ?? 0),
        averageBandwidth: Number(attribute('AVERAGE-BANDWIDTH') ?? attribute('BANDWIDTH') ?? 0),
        codecs: attribute('CODECS') ?? '',
      };
    } else if (pending && line !== '' && !line.startsWith('#')) {
      variants.push({ ...pending, playlist: line });
      pending = null;
    }
  }
  return { variants, framerate };
}

/** The media playlist of a WebVTT captions file (HLS lists captions through one): one segment, the whole video. */
export function captionsPlaylist(vttUri: string, durationSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(durationSeconds));
  return [
    '#EXTM3U',
    `#EXT-X-TARGETDURATION:${seconds}`,
    '#EXT-X-VERSION:3',
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    `#EXTINF:${seconds}.0,`,
    vttUri,
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');
}
