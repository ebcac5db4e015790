/**
 * What the video API reports about a video besides its model: the play data a player starts from
 * (addresses on the library's pull zone, the library's player settings), its renditions and files
 * by kind (read from the storage zone), and its oEmbed description. Views, watch time and the
 * heatmap are counted from what the edge served (plays.ts).
 */
import type { FileRecord } from '../../store/types.js';
import { VideoStatus } from '../../schemas/video.js';
import { errors } from '../errors.js';
import { escapeHtml } from '../html.js';
import type { FileService } from '../files/service.js';
import { splitList } from './progress.js';
import type { VideoService } from './service.js';
import type { LibraryAccess, VideoDoc } from './types.js';
import { HLS_FILE, MP4_FILE, filesOfVideo } from './video-files.js';

export class VideoReports {
  constructor(
    private readonly files: FileService,
    private readonly videos: VideoService,
    private readonly clock: () => Date,
  ) {}

  async playData(access: LibraryAccess, guid: string) {
    const video = (await this.videos.find(access, guid)).doc;
    const lib = access.library;
    const base = `${access.playbackOrigin}/${guid}`;
    const ready = isPlayable(video);
    const fallback = video.hasMP4Fallback ? splitList(video.availableResolutions).at(-1) : undefined;
    const scheme = lib.DrmSchemeB;
    return {
      video: this.videos.view(access, video),
      libraryName: lib.Name,
      pullZoneId: lib.PullZoneId,
      captionsPath: `${base}/captions/`,
      seekPath: `${base}/seek/_.jpg`,
      thumbnailUrl: `${base}/${video.thumbnailFileName ?? 'thumbnail.jpg'}`,
      fallbackUrl: fallback ? `${base}/play_${fallback}.mp4` : null,
      videoPlaylistUrl: `${base}/playlist.m3u8`,
      originalUrl: lib.ExposeOriginals && video.hasOriginal ? `${base}/original` : null,
      previewUrl: `${base}/preview.webp`,
      controls: lib.Controls,
      enableDRM: lib.EnableDRM,
      drmVersion: lib.DrmVersion,
      playerKeyColor: lib.PlayerKeyColor,
      vastTagUrl: lib.VastTagUrl,
      adPublisherId: lib.AdPublisherId,
      captionsFontSize: lib.CaptionsFontSize,
      captionsFontColor: lib.CaptionsFontColor,
      captionsBackground: lib.CaptionsBackground,
      uiLanguage: lib.UILanguage,
      allowEarlyPlay: lib.AllowEarlyPlay ?? false,
      tokenAuthEnabled: lib.PlayerTokenAuthenticationEnabled,
      enableMP4Fallback: lib.EnableMP4Fallback,
      showHeatmap: lib.ShowHeatmap,
      fontFamily: lib.FontFamily,
      playbackSpeeds: lib.PlaybackSpeeds,
      drmSchemeBMinClientSecurityLevel: scheme?.MinClientSecurityLevel ?? null,
      drmSchemeBEmeRobustness: null,
      drmSchemeBSdOnlyForL3: scheme?.SdOnlyForL3 ?? false,
      maxSoftwareDrmSchemeBResolution: null,
      zoneTier: lib.PullZoneType,
      isPlayable: ready,
      isPlaylistPlayable: ready,
      preferredPlaybackSource: ready ? ('Playlist' as const) : lib.AllowEarlyPlay && video.hasOriginal ? ('Original' as const) : ('None' as const),
      rememberPlayerPosition: lib.RememberPlayerPosition,
      customCss: null,
      exposeVideoMetadata: lib.ExposeVideoMetadata,
      enableCompactControls: lib.EnableCompactControls,
    };
  }

  /** The renditions as the library asks for them, as the video lists them and as they are stored. */
  async resolutions(access: LibraryAccess, guid: string) {
    const video = (await this.videos.find(access, guid)).doc;
    const stored = await filesOfVideo(this.files, access.zone, guid);
    const names = stored.map((f) => f.path.slice(guid.length + 1));
    const hls = [...new Set(names.map((n) => HLS_FILE.exec(n)?.[1]).filter((r): r is string => r !== undefined))];
    const mp4 = names.map((n) => MP4_FILE.exec(n)?.[1]).filter((r): r is string => r !== undefined);
    const playlist = stored.find((f) => f.path === `${guid}/playlist.m3u8`);
    const listed = playlist
      ? [...(await this.files.readBytes(playlist)).toString('utf8').matchAll(/^(\d{3,4}p)\/[^\s]*\.m3u8$/gm)].map((m) => ({ resolution: m[1]!, path: m[0] }))
      : [];
    const data = {
      videoId: guid,
      videoLibraryId: access.libraryId,
      availableResolutions: splitList(video.availableResolutions),
      configuredResolutions: splitList(access.library.EnabledResolutions),
      playlistResolutions: listed,
      storageResolutions: hls.map((r) => ({ resolution: r, path: `${r}/` })),
      mp4Resolutions: mp4.map((r) => ({ resolution: r, path: `play_${r}.mp4` })),
      storageObjects: stored.filter((f) => !f.path.slice(guid.length + 1).includes('/')).map((f) => storageObject(access, f)),
      oldResolutions: [],
      hasBothOldAndNewResolutionFormat: false,
      hasOriginal: names.includes('original'),
    };
    return { success: true, message: null, statusCode: 200, data };
  }

  /** Bytes of the video's files by kind, added up now. */
  async storageSize(access: LibraryAccess, guid: string) {
    const video = (await this.videos.find(access, guid)).doc;
    const codec = splitList(video.outputCodecs)[0] ?? 'x264';
    const encoded: Record<string, { codec: string; resolution: string; size: number }> = {};
    const sizes = { thumbnails: 0, previews: 0, originals: 0, mp4Fallback: 0, miscellaneous: 0 };
    for (const file of await filesOfVideo(this.files, access.zone, guid)) {
      const name = file.path.slice(guid.length + 1);
      const hls = HLS_FILE.exec(name)?.[1];
      if (hls) {
        const entry = (encoded[`${codec}_${hls}`] ??= { codec, resolution: hls, size: 0 });
        entry.size += file.size;
      } else if (MP4_FILE.test(name)) sizes.mp4Fallback += file.size;
      else if (name === 'original') sizes.originals += file.size;
      else if (/^preview\./.test(name)) sizes.previews += file.size;
      else if (/\.(jpe?g|png|webp|gif)$/.test(name)) sizes.thumbnails += file.size;
      else sizes.miscellaneous += file.size;
    }
    return { success: true, message: null, statusCode: 200, data: { encoded, ...sizes, calculatedAt: this.clock().toISOString() } };
  }

  /** The oEmbed answer for an embed address `…/embed/{libraryId}/{guid}` of a library the caller may read. */
  async oEmbed(access: LibraryAccess, guid: string, embedUrl: string, maxWidth?: number | null, maxHeight?: number | null) {
    const video = (await this.videos.find(access, guid)).doc;
    const [w, h] = fitWithin(video.width || 1280, video.height || 720, maxWidth ?? undefined, maxHeight ?? undefined);
    const thumbnail = this.videos.view(access, video).thumbnailUrl;
    return {
      version: '1.0',
      title: video.title,
      type: 'video',
      thumbnail_url: thumbnail,
      thumbnail_width: thumbnail ? w : null,
      thumbnail_height: thumbnail ? h : null,
      width: w,
      height: h,
      html: `<iframe src="${escapeHtml(embedUrl)}" width="${w}" height="${h}" style="border:none" allow="accelerometer; autoplay; encrypted-media; picture-in-picture" allowfullscreen></iframe>`,
      provider_name: 'edgeplane',
      provider_url: new URL(embedUrl).origin,
    };
  }
}

/** Whether a player can start the video's playlist: it is finished, or a rendition already is. */
export function isPlayable(video: Pick<VideoDoc, 'status' | 'availableResolutions'>): boolean {
  return video.status === VideoStatus.Finished || splitList(video.availableResolutions).length > 0;
}

/** The library and video an embed address names: `…/embed/{libraryId}/{guid}` (or `/play/`). */
export function embedTarget(address: string | null | undefined): { libraryId: number; guid: string } {
  let path = '';
  try {
    path = new URL(address ?? '').pathname;
  } catch {
    // Not an absolute address: refused below.
  }
  const match = /\/(?:embed|play)\/(\d+)\/([0-9a-f-]{36})\/?$/i.exec(path);
  if (!match) throw errors.validation('url', 'The url must be the embed address of a video: …/embed/{libraryId}/{videoId}.', 'video.oembed_url_invalid');
  return { libraryId: Number(match[1]), guid: match[2]!.toLowerCase() };
}

function fitWithin(width: number, height: number, maxWidth?: number, maxHeight?: number): [number, number] {
  let scale = 1;
  if (maxWidth && maxWidth > 0) scale = Math.min(scale, maxWidth / width);
  if (maxHeight && maxHeight > 0) scale = Math.min(scale, maxHeight / height);
  return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
}

function storageObject(access: LibraryAccess, f: FileRecord) {
  const cut = f.path.lastIndexOf('/');
  return {
    guid: f.guid,
    storageZoneName: access.zone.zoneName,
    path: `/${access.zone.zoneName}/${f.path.slice(0, cut + 1)}`,
    objectName: f.path.slice(cut + 1),
    length: f.size,
    lastChanged: f.changedAt,
    serverId: 0,
    isDirectory: f.isDirectory,
    userId: access.zone.userId,
    contentType: f.contentType ?? '',
    dateCreated: f.createdAt,
    storageZoneId: Number(access.zone.zoneId),
    checksum: f.sha256 ? f.sha256.toUpperCase() : null,
    replicatedZones: access.zone.replicationRegions.join(','),
  };
}
