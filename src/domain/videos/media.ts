/**
 * The files a client puts into a video's folder: the source by `PUT` (streamed into the library's
 * storage zone as `{guid}/original`, never held in memory, then the encoding job is queued), a
 * thumbnail of its own choice, and captions tracks (`captions/{srclang}.vtt`).
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { JobRunner } from '../../jobs/runner.js';
import { ISSUE_CODES, MESSAGE_LEVELS, VideoStatus, type CaptionAddBodyT, type CaptionValidationT } from '../../schemas/video.js';
import type { Store } from '../../store/types.js';
import type { OriginAddresses } from '../edge/origin/addresses.js';
import { errors } from '../errors.js';
import type { FileService } from '../files/service.js';
import { readImage } from '../video-libraries/image-format.js';
import { captionsToWebVtt } from '../../media/captions.js';
import { InvalidCaptionsError } from '../../media/errors.js';
import { fetchSmallFile } from './remote-file.js';
import type { VideoService } from './service.js';
import type { LibraryAccess } from './types.js';
import type { MasterPlaylists } from './master-playlists.js';

/** The job that encodes an uploaded source (its handler belongs to the encoding work). */
export const ENCODE_JOB = 'video.encode';
/** Statuses in which the source is already there: a second upload is refused. */
const HAS_SOURCE = new Set<number>([VideoStatus.Uploaded, VideoStatus.Processing, VideoStatus.Transcoding, VideoStatus.Finished]);
const MAX_THUMBNAIL_BYTES = 10 * 1024 * 1024;
const MAX_CAPTIONS_BYTES = 5 * 1024 * 1024;
/** A language code (`en`, `pt-BR`, `zh-Hans`): it names the file, so nothing else passes. */
const SRCLANG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/;

export class VideoMedia {
  constructor(
    private readonly store: Store,
    private readonly files: FileService,
    private readonly jobs: JobRunner,
    private readonly videos: VideoService,
    private readonly addresses: OriginAddresses,
    private readonly playlists: MasterPlaylists,
  ) {}

  /**
   * Stores `body` as the video's source, then marks it Uploaded and queues its encoding. An upload
   * that fails (aborted, too large) leaves no file and marks the video UploadFailed with the reason.
   */
  async upload(access: LibraryAccess, guid: string, body: Readable, signal?: AbortSignal): Promise<void> {
    await this.expectNoSource(access, guid);
    let sha256: string | null;
    try {
      ({ sha256 } = await this.files.upload(access.zone, { path: `${guid}/original`, isDirectory: false }, body, {
        signal,
        contentType: 'application/octet-stream',
      }));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await this.videos.recordProgress(access.libraryId, guid, {
        status: VideoStatus.UploadFailed,
        message: { level: MESSAGE_LEVELS.indexOf('Error'), issueCode: ISSUE_CODES.indexOf('Undefined'), message: `The upload failed: ${reason}` },
      });
      throw error;
    }
    await this.sourceStored(access, guid, sha256);
  }

  /** The video of the library, refused when it has its source already (a second upload). */
  async expectNoSource(access: Pick<LibraryAccess, 'libraryId' | 'accountId'>, guid: string) {
    const video = await this.videos.find(access, guid);
    if (HAS_SOURCE.has(video.doc.status)) throw errors.invalid('The video was already uploaded.', 'video.already_uploaded');
    return video;
  }

  /**
   * The source is stored as `{guid}/original` (a PUT's body, or a resumable upload's last byte):
   * the video is Uploaded and its encoding queued.
   */
  async sourceStored(access: Pick<LibraryAccess, 'libraryId'>, guid: string, sha256: string | null): Promise<void> {
    await this.videos.recordProgress(access.libraryId, guid, {
      status: VideoStatus.Uploaded,
      hasOriginal: true,
      originalHash: sha256 ?? undefined,
      recountStorage: true,
    });
    await this.jobs.enqueue(ENCODE_JOB, { libraryId: access.libraryId, guid });
  }

  /** Sets the main thumbnail from the body's image, or from the image at `url`; a new name each time so caches see the change. */
  async setThumbnail(access: LibraryAccess, guid: string, source: { bytes?: Buffer | undefined; url?: string | undefined }): Promise<void> {
    const video = await this.videos.find(access, guid);
    let bytes = source.bytes;
    if (bytes === undefined || bytes.length === 0) {
      if (!source.url) throw errors.validation('thumbnailUrl', 'Send the image as the body, or its address as thumbnailUrl.', 'video.thumbnail_missing');
      bytes = await fetchSmallFile(source.url, this.addresses, MAX_THUMBNAIL_BYTES, 'thumbnailUrl');
    }
    if (bytes.length > MAX_THUMBNAIL_BYTES) throw errors.payloadTooLarge(`A thumbnail may have at most ${MAX_THUMBNAIL_BYTES} bytes.`);
    const image = readImage(bytes);
    if (!image) throw errors.invalid('The thumbnail must be a JPEG, PNG, GIF or WebP image.', 'video.thumbnail_invalid');
    const name = `thumbnail_${randomBytes(4).toString('hex')}.${image.format === 'jpeg' ? 'jpg' : image.format}`;
    await this.files.upload(access.zone, { path: `${guid}/${name}`, isDirectory: false }, Readable.from([bytes]), { contentType: image.contentType });
    const previous = video.doc.thumbnailFileName;
    await this.videos.recordProgress(access.libraryId, guid, { thumbnailFileName: name, recountStorage: true });
    // A thumbnail set before this one goes; the encoder's own stays (it is re-made on re-encode).
    if (previous?.startsWith('thumbnail_')) {
      await this.files.remove(access.zone, { path: `${guid}/${previous}`, isDirectory: false }).catch(() => undefined);
      await this.videos.recordProgress(access.libraryId, guid, { recountStorage: true });
    }
  }

  /** Adds or replaces the captions track `srclang` (WebVTT or SubRip, stored as WebVTT); the master playlist lists it when the library says so. */
  async addCaption(access: LibraryAccess, guid: string, srclang: string, input: CaptionAddBodyT): Promise<CaptionValidationT> {
    checkLanguage(srclang);
    await this.videos.find(access, guid);
    if (!input.captionsFile)
      throw errors.validation('captionsFile', 'The captionsFile (base64 of a WebVTT or SubRip file) is required.', 'video.captions_missing');
    const raw = Buffer.from(input.captionsFile, 'base64');
    if (raw.length > MAX_CAPTIONS_BYTES) throw errors.payloadTooLarge(`A captions file may have at most ${MAX_CAPTIONS_BYTES} bytes.`);
    const vtt = asWebVtt(raw.toString('utf8'));
    await this.files.upload(access.zone, { path: `${guid}/captions/${srclang}.vtt`, isDirectory: false }, Readable.from([Buffer.from(vtt.vtt)]), {
      contentType: 'text/vtt',
    });
    await this.changeCaptions(access, guid, (captions) => {
      const old = captions.find((c) => c.srclang === srclang);
      const entry = { srclang, label: input.label ?? old?.label ?? srclang, version: (old?.version ?? 0) + 1 };
      return [...captions.filter((c) => c.srclang !== srclang), entry];
    });
    await this.playlists.write(access, guid, { captionsChanged: true });
    await this.videos.recordProgress(access.libraryId, guid, { recountStorage: true });
    return { valid: true, errorList: [], warningList: vtt.warnings, warningMessage: vtt.warnings.length > 0 ? vtt.warnings.join(' ') : null };
  }

  async deleteCaption(access: LibraryAccess, guid: string, srclang: string): Promise<void> {
    checkLanguage(srclang);
    const video = await this.videos.find(access, guid);
    if (!(video.doc.captions ?? []).some((c) => c.srclang === srclang)) throw errors.notFound('caption');
    await this.changeCaptions(access, guid, (captions) => captions.filter((c) => c.srclang !== srclang));
    await this.playlists.write(access, guid, { captionsChanged: true });
    // Unlisted first, then removed: a player never reads a playlist that names a missing file.
    for (const file of [`${srclang}.vtt`, `${srclang}.m3u8`]) {
      await this.files.remove(access.zone, { path: `${guid}/captions/${file}`, isDirectory: false }).catch(() => undefined);
    }
    await this.videos.recordProgress(access.libraryId, guid, { recountStorage: true });
  }

  private async changeCaptions(
    access: LibraryAccess,
    guid: string,
    change: (captions: NonNullable<import('./types.js').VideoDoc['captions']>) => NonNullable<import('./types.js').VideoDoc['captions']>,
  ) {
    await this.store.transaction(async (tx) => {
      const current = await this.videos.videos.get(tx, access.accountId, guid);
      await this.videos.videos.update(tx, access.accountId, current, { ...current.doc, captions: change(current.doc.captions ?? []) });
    });
  }
}

/** The uploaded captions as WebVTT (SubRip converted, WebVTT checked); a file that is neither is a 400 naming each problem. */
function asWebVtt(text: string): { vtt: string; warnings: string[] } {
  try {
    return captionsToWebVtt(text);
  } catch (error) {
    if (error instanceof InvalidCaptionsError) throw errors.validation('captionsFile', error.message, 'video.captions_invalid');
    throw error;
  }
}

function checkLanguage(srclang: string): void {
  if (!SRCLANG.test(srclang)) throw errors.validation('srclang', 'The srclang must be a language code such as en or pt-BR.', 'video.srclang_invalid');
}
