/**
 * What the embed page (`/embed/{libraryId}/{guid}`, an iframe's address; `/play/…` when the
 * library allows direct play) may show, decided before any HTML is written: the library's referrer
 * lists judge the embedding site, the embed token is checked when the library asks for one, and the
 * video must be playable. The answer is the video's play data (the same addresses and player
 * settings the API gives), its addresses signed with a directory token when the library's pull
 * zone asks for tokens, so that the player reaches every file of the video and nothing else.
 */
import { VideoStatus } from '../../schemas/video.js';
import { compileReferrerCheck } from '../edge/policy/access.js';
import { directoryTokenSegment } from '../edge/policy/token/sign.js';
import { errors } from '../errors.js';
import type { Clock } from '../principal.js';
import { embedTokenProblem } from './embed-token.js';
import type { LibraryKeys } from './library-access.js';
import type { VideoReports } from './reports.js';

/** Past the video's end, how long the player's signed addresses stay good (pauses, seeking back). */
const PLAYBACK_MARGIN_SECONDS = 3600;

export interface EmbedRequest {
  libraryId: number;
  guid: string;
  /** `/play/…`: the direct play address, open only when the library's AllowDirectPlay. */
  direct: boolean;
  token?: string | undefined;
  expires?: string | undefined;
  referer?: string | undefined;
  /** The viewer's address, for a pull zone that binds its tokens to it. */
  clientIp: string;
}

export interface EmbedCaption {
  srclang: string;
  label: string;
  url: string;
}

export type PlayData = Awaited<ReturnType<VideoReports['playData']>>;

export interface EmbedView {
  /** The play data, its addresses signed when the pull zone asks for tokens. */
  play: PlayData;
  /** What the player plays: the HLS playlist, or the original file while encoding runs (AllowEarlyPlay). */
  source: { kind: 'playlist' | 'original'; url: string };
  captions: EmbedCaption[];
  /** The origin every file of the page comes from (its Content-Security-Policy names it). */
  playbackOrigin: string;
  /** AllowedReferrers: the sites that may frame the page (empty: any). */
  allowedFramers: string[];
}

export class VideoEmbeds {
  constructor(
    private readonly keys: LibraryKeys,
    private readonly reports: VideoReports,
    private readonly clock: Clock,
  ) {}

  /** The page's content, or the AppError to show instead: 404 (no such library or video), 403 (referrer, token, direct play), 409 (not playable). */
  async open(request: EmbedRequest): Promise<EmbedView> {
    const found = await this.keys.find(request.libraryId);
    if (!found) throw errors.notFound('video');
    const library = found.library;
    if (request.direct && !library.AllowDirectPlay)
      throw errors.forbidden('This library does not allow direct play; embed the video instead.', 'video.direct_play_disabled');
    const refusal = compileReferrerCheck(library)?.(request.referer);
    if (refusal) throw errors.forbidden('This video may not be embedded on this site.', `video.${refusal.replaceAll('-', '_')}`);
    const now = this.clock();
    if (library.PlayerTokenAuthenticationEnabled) {
      const problem = embedTokenProblem(found.delivery.key, request.guid, request.token, request.expires, now);
      if (problem) throw errors.forbidden(TOKEN_MESSAGES[problem], `video.embed_${problem.replaceAll('-', '_')}`);
    }
    const access = { ...found, canWrite: false };
    const play = await this.reports.playData(access, request.guid);
    const video = play.video;
    if (video.status === VideoStatus.Error || video.status === VideoStatus.UploadFailed)
      throw errors.conflict('This video could not be processed.', 'video.failed');
    if (play.preferredPlaybackSource === 'None') throw errors.conflict('This video is still being processed; try again in a moment.', 'video.not_ready');

    const base = `${found.playbackOrigin}/${video.guid}/`;
    let sign = (url: string) => url;
    if (found.delivery.required) {
      const tokenExpiry = library.PlayerTokenAuthenticationEnabled ? Number(request.expires) : 0;
      const expires = Math.max(tokenExpiry, Math.ceil(now.getTime() / 1000) + video.length + PLAYBACK_MARGIN_SECONDS);
      const segment = directoryTokenSegment(found.delivery, { tokenPath: `/${video.guid}/`, expires, clientIp: request.clientIp });
      sign = (url) => (url.startsWith(base) ? `${found.playbackOrigin}${segment}/${url.slice(found.playbackOrigin.length + 1)}` : url);
    }
    const signedOrNull = (url: string | null) => (url === null ? null : sign(url));
    const isEarly = play.preferredPlaybackSource === 'Original';
    return {
      play: {
        ...play,
        captionsPath: sign(play.captionsPath),
        seekPath: sign(play.seekPath),
        thumbnailUrl: sign(play.thumbnailUrl),
        fallbackUrl: signedOrNull(play.fallbackUrl),
        videoPlaylistUrl: sign(play.videoPlaylistUrl),
        originalUrl: signedOrNull(play.originalUrl),
        previewUrl: sign(play.previewUrl),
      },
      source: isEarly ? { kind: 'original', url: sign(`${base}original`) } : { kind: 'playlist', url: sign(play.videoPlaylistUrl) },
      captions: (video.captions ?? [])
        .filter((c): c is typeof c & { srclang: string } => typeof c.srclang === 'string' && c.srclang !== '')
        .map((c) => ({ srclang: c.srclang, label: c.label || c.srclang, url: sign(`${base}captions/${c.srclang}.vtt?v=${c.version}`) })),
      playbackOrigin: found.playbackOrigin,
      allowedFramers: (library.AllowedReferrers ?? []).map((h) => h.trim()).filter((h) => h !== ''),
    };
  }
}

const TOKEN_MESSAGES = {
  'token-missing': 'This video needs a signed address (token and expires).',
  'token-invalid': 'The token of this address is not valid.',
  'token-expired': 'This address has expired.',
} as const;
