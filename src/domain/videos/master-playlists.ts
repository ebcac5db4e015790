/**
 * A video's stored master playlist (`{guid}/playlist.m3u8`) written again from what it lists and
 * what the video and its library now say: the renditions kept, and the video's captions as a
 * SUBTITLES group when the library's `EnableCaptionsInPlaylist` is on, each track with its own
 * media playlist (`captions/{srclang}.m3u8` over `{srclang}.vtt`). Written after an encode, a
 * resolutions cleanup and each captions change; for every video of a library by a stored job
 * (`video.playlists`) when the library's setting changes. What the edge cached of the master and
 * of the captions is purged on the library's pull zone, so players see the change at once.
 */
import { Readable } from 'node:stream';
import { mimeTypes } from '../../files/media-types.js';
import type { JobRunner } from '../../jobs/runner.js';
import { type CaptionsTrack, captionsPlaylist, masterPlaylist, readMasterPlaylist } from '../../media/playlists.js';
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { VideoLibraryT } from '../../schemas/video-library.js';
import type { Store, StoreTx } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import { type StoredPullZone, withPurge } from '../edge/purge/purge-log.js';
import { AppError } from '../errors.js';
import type { FileService } from '../files/service.js';
import type { Clock } from '../principal.js';
import type { VideoService } from './service.js';
import type { LibraryAccess, VideoDoc } from './types.js';

/** The job that writes the master playlist of every video of a library again. */
export const PLAYLISTS_JOB = 'video.playlists';
const MASTER = 'playlist.m3u8';
const EVERY = Number.MAX_SAFE_INTEGER;

type Library = Omit<LibraryAccess, 'canWrite'>;

export class MasterPlaylists {
  constructor(
    private readonly store: Store,
    private readonly files: FileService,
    private readonly videos: VideoService,
    private readonly pullZones: DocumentRepo<PullZoneT>,
  ) {}

  /**
   * Writes the video's master playlist again, keeping only the renditions named in `keep` when
   * given. A video not encoded yet has none: its encode writes it (and calls this at its end).
   * `captionsChanged`: a captions file was added, replaced or removed (the edge's copies go).
   */
  async write(library: Library, guid: string, options: { keep?: ReadonlySet<string>; captionsChanged?: boolean } = {}): Promise<void> {
    const { keep } = options;
    const video = await this.videos.find(library, guid).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') return undefined;
      throw error;
    });
    const stored = video && (await this.files.find(library.zone, `${guid}/${MASTER}`));
    if (!video || !stored) return;
    const before = (await this.files.readBytes(stored)).toString('utf8');
    const { variants, framerate } = readMasterPlaylist(before);
    const tracks = captionsOf(library.library, video.doc);
    for (const track of tracks) {
      const srclang = track.language;
      await this.put(library, `${guid}/captions/${srclang}.m3u8`, captionsPlaylist(`${srclang}.vtt`, video.doc.length));
    }
    const after = masterPlaylist(
      variants.filter((v) => keep === undefined || keep.has(v.playlist.split('/')[0]!)),
      tracks,
      framerate,
    );
    if (after !== before) await this.put(library, `${guid}/${MASTER}`, after);
    const purges = [...(after !== before ? [`/${guid}/${MASTER}`] : []), ...(options.captionsChanged ? [`/${guid}/captions/*`] : [])];
    if (purges.length > 0) await this.purge(library, purges);
  }

  /** Every video of the library (the library's setting changed). */
  async writeAll(library: Library): Promise<void> {
    const { items } = await this.videos.videos.list(this.store, library.accountId, { parentId: String(library.libraryId), offset: 0, limit: EVERY });
    for (const video of items) await this.write(library, video.guid);
  }

  private async put(library: Library, path: string, text: string): Promise<void> {
    await this.files.upload(library.zone, { path, isDirectory: false }, Readable.from([Buffer.from(text)]), {
      contentType: mimeTypes().lookup(path) || 'application/vnd.apple.mpegurl',
    });
  }

  /** Purges the edge's copies of every file of the video (its files were written again: a re-encode, a codec added). */
  async purgeVideo(library: Library, guid: string): Promise<void> {
    await this.purge(library, [`/${guid}/*`]);
  }

  private async purge(library: Library, patterns: string[]): Promise<void> {
    await this.store.transaction(async (tx) => {
      const zone = await this.pullZones.find(tx, library.accountId, library.library.PullZoneId);
      if (zone) await this.pullZones.update(tx, library.accountId, zone, patterns.reduce(withPurge, zone.doc as StoredPullZone));
    });
  }
}

/** The captions tracks the master playlist lists: the video's, when the library lists captions. */
function captionsOf(library: VideoLibraryT, video: VideoDoc): CaptionsTrack[] {
  if (!library.EnableCaptionsInPlaylist) return [];
  return (video.captions ?? [])
    .filter((c): c is typeof c & { srclang: string } => typeof c.srclang === 'string' && c.srclang !== '')
    .map((c) => ({ language: c.srclang, name: c.label || c.srclang, uri: `captions/${c.srclang}.m3u8` }));
}

/** Runs `video.playlists` jobs: a library's videos' master playlists written again. */
export function registerPlaylistsJob(jobs: JobRunner, videos: VideoService, playlists: MasterPlaylists): void {
  jobs.register(PLAYLISTS_JOB, async (payload) => {
    const library = await videos.keys.find((payload as { libraryId: number }).libraryId);
    // The library went away meanwhile: its files with it.
    if (library) await playlists.writeAll(library);
  });
}

/** For the library's update: turning `EnableCaptionsInPlaylist` on or off queues the rewrite of its videos' playlists, in the same transaction. */
export function rewriteOnCaptionsSetting(clock: Clock) {
  return async (tx: StoreTx, _accountId: number, before: VideoLibraryT, after: VideoLibraryT): Promise<void> => {
    if (Boolean(before.EnableCaptionsInPlaylist) === Boolean(after.EnableCaptionsInPlaylist)) return;
    await tx.jobs.enqueue(PLAYLISTS_JOB, { libraryId: after.Id }, clock().getTime());
  };
}
