/**
 * What a client asks of the encoding besides the first encode: encode again, add an output codec,
 * repackage, fetch a new video from an address, and remove renditions. Each is checked here, the
 * video's state set, and the work queued as a stored job of the encoding (`video.encode` with a
 * `mode`, or `video.fetch`), whose handlers belong to the encoding work.
 */
import type { JobRunner } from '../../jobs/runner.js';
import { OUTPUT_CODEC_IDS, VideoStatus, type FetchBodyT, type VideoT } from '../../schemas/video.js';
import type { Secrets } from '../../security/secrets.js';
import type { OriginAddresses } from '../edge/origin/addresses.js';
import { errors } from '../errors.js';
import type { FileService } from '../files/service.js';
import { ENCODE_JOB } from './media.js';
import { splitList } from './progress.js';
import { remoteAddress } from './remote-file.js';
import type { VideoService } from './service.js';
import type { LibraryAccess } from './types.js';
import { HLS_FILE, MP4_FILE, filesOfVideo } from './video-files.js';

/** The job that fetches a video from an address; its `headers` are sealed (they may carry credentials). */
export const FETCH_JOB = 'video.fetch';

/** Payload of `video.encode`: `mode` says what to do (absent: the first encode of an upload). */
export interface EncodeJob {
  libraryId: number;
  guid: string;
  mode?: 'reencode' | 'add-codec' | 'repackage' | 'playlist';
  /** For `add-codec`. */
  codec?: string;
  /** For `repackage`: keep the previous files. */
  keepOriginalFiles?: boolean;
}

/** Payload of `video.fetch`; `sealedHeaders` opens with `Secrets.open` into a JSON object. */
export interface FetchJob {
  libraryId: number;
  guid: string;
  url: string;
  sealedHeaders: string | null;
}

export interface CleanupOptions {
  resolutionsToDelete?: string | null | undefined;
  deleteNonConfiguredResolutions: boolean;
  allResolutions: boolean;
  deleteOriginal: boolean;
  outputs?: string | null | undefined;
  deleteMp4Files: boolean;
  dryRun: boolean;
}

/** Codecs beyond x264 need the library's premium encoding tier (spec 8). */
const FREE_CODECS = new Set(['x264']);

export class EncodingRequests {
  constructor(
    private readonly files: FileService,
    private readonly jobs: JobRunner,
    private readonly videos: VideoService,
    private readonly secrets: Secrets,
    private readonly addresses: OriginAddresses,
  ) {}

  /** Encodes the video again from its original (400 when the original was not kept). */
  async reencode(access: LibraryAccess, guid: string): Promise<VideoT> {
    await this.videos.find(access, guid);
    await this.requireOriginal(access, guid);
    const video = await this.videos.recordProgress(access.libraryId, guid, { status: VideoStatus.Uploaded, encodeProgress: 0 });
    await this.jobs.enqueue(ENCODE_JOB, { libraryId: access.libraryId, guid, mode: 'reencode' } satisfies EncodeJob);
    return video;
  }

  /** Adds an output codec (its id in the path): encoded from the original, beside the renditions already there. */
  async addOutputCodec(access: LibraryAccess, guid: string, codecId: number): Promise<VideoT> {
    const codec = OUTPUT_CODEC_IDS[codecId];
    if (codec === undefined) throw errors.validation('outputCodecId', 'The outputCodecId must be 0 (x264), 1 (vp9), 2 (hevc) or 3 (av1).');
    if (!FREE_CODECS.has(codec) && access.library.EncodingTier !== 1) {
      throw errors.validation('outputCodecId', `The ${codec} codec needs the premium encoding tier of the library.`, 'video.codec_needs_premium');
    }
    const video = await this.videos.find(access, guid);
    const codecs = splitList(video.doc.outputCodecs);
    if (codecs.includes(codec)) throw errors.validation('outputCodecId', `The video is already encoded with ${codec}.`, 'video.codec_present');
    await this.requireOriginal(access, guid);
    const updated = await this.videos.recordProgress(access.libraryId, guid, { outputCodecs: [...codecs, codec].join(',') });
    await this.jobs.enqueue(ENCODE_JOB, { libraryId: access.libraryId, guid, mode: 'add-codec', codec } satisfies EncodeJob);
    return updated;
  }

  /** Packages the renditions again (for DRM): only with the library's enterprise DRM. */
  async repackage(access: LibraryAccess, guid: string, keepOriginalFiles: boolean): Promise<VideoT> {
    if (!access.library.EnableDRM || access.library.DrmVersion !== 1) {
      throw errors.invalid('Enterprise DRM is disabled for the library: repackaging is not available.', 'video.repackage_unavailable');
    }
    const video = await this.videos.find(access, guid);
    await this.jobs.enqueue(ENCODE_JOB, { libraryId: access.libraryId, guid, mode: 'repackage', keepOriginalFiles } satisfies EncodeJob);
    return this.videos.view(access, video.doc);
  }

  /** Creates a video and queues the fetch of its file from `input.url` (with `input.headers`, sealed while queued). */
  async fetch(
    access: LibraryAccess,
    input: FetchBodyT,
    options: { collectionId?: string | null | undefined; thumbnailTime?: number | null | undefined },
  ): Promise<VideoT> {
    const url = remoteAddress(input.url, this.addresses, 'url');
    const title =
      input.title ||
      decodeURIComponent(
        url.pathname
          .split('/')
          .filter((s) => s !== '')
          .at(-1) ?? '',
      ) ||
      url.hostname;
    const video = await this.videos.create(access, { title, collectionId: options.collectionId ?? null, thumbnailTime: options.thumbnailTime ?? null });
    const headers = input.headers && Object.keys(input.headers).length > 0 ? this.secrets.seal(JSON.stringify(input.headers)) : null;
    await this.jobs.enqueue(FETCH_JOB, { libraryId: access.libraryId, guid: video.guid, url: url.href, sealedHeaders: headers } satisfies FetchJob);
    return video;
  }

  /**
   * Removes renditions from storage: the named ones, or those the library no longer asks for, or
   * all; HLS folders, MP4 fallbacks or both (`outputs`); the original too when asked. The master
   * playlist is then written again by the encoding job (`mode: 'playlist'`). A dry run removes
   * nothing and says what would go.
   */
  async cleanup(access: LibraryAccess, guid: string, o: CleanupOptions): Promise<string[]> {
    const video = await this.videos.find(access, guid);
    const outputs = (o.outputs ?? '').trim().toLowerCase() || (o.deleteMp4Files ? 'all' : 'hls');
    if (!['hls', 'mp4', 'all'].includes(outputs)) throw errors.validation('outputs', 'The outputs must be hls, mp4 or all.');
    const named = new Set(splitList(o.resolutionsToDelete));
    const configured = new Set(splitList(access.library.EnabledResolutions));
    const doomed = (resolution: string) => o.allResolutions || named.has(resolution) || (o.deleteNonConfiguredResolutions && !configured.has(resolution));
    const stored = await filesOfVideo(this.files, access.zone, guid);
    const removed: string[] = [];
    const folders = new Set<string>();
    for (const file of stored) {
      const name = file.path.slice(guid.length + 1);
      const hls = HLS_FILE.exec(name)?.[1];
      const mp4 = MP4_FILE.exec(name)?.[1];
      if (hls && outputs !== 'mp4' && doomed(hls)) folders.add(hls);
      else if (mp4 && (outputs !== 'hls' || o.deleteMp4Files) && doomed(mp4)) removed.push(name);
      else if (name === 'original' && o.deleteOriginal) removed.push(name);
    }
    removed.push(...[...folders].map((f) => `${f}/`));
    if (o.dryRun || removed.length === 0) return removed.sort();
    for (const name of removed) {
      if (name.endsWith('/')) await this.videos.removeFolder(access, guid, name);
      else await this.files.remove(access.zone, { path: `${guid}/${name}`, isDirectory: false }).catch(() => undefined);
    }
    const left = splitList(video.doc.availableResolutions).filter((r) => !folders.has(r));
    await this.videos.recordProgress(access.libraryId, guid, {
      availableResolutions: left,
      recountStorage: true,
      ...(removed.includes('original') ? { hasOriginal: false } : {}),
      ...(removed.some((n) => MP4_FILE.test(n)) &&
      !stored.some((f) => MP4_FILE.test(f.path.slice(guid.length + 1)) && !removed.includes(f.path.slice(guid.length + 1)))
        ? { hasMP4Fallback: false }
        : {}),
    });
    await this.jobs.enqueue(ENCODE_JOB, { libraryId: access.libraryId, guid, mode: 'playlist' } satisfies EncodeJob);
    return removed.sort();
  }

  private async requireOriginal(access: LibraryAccess, guid: string): Promise<void> {
    const original = await this.files.find(access.zone, `${guid}/original`);
    if (!original) throw errors.invalid('The original file is missing: the video cannot be encoded again.', 'video.original_missing');
  }
}
