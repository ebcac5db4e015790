/**
 * Resumable uploads of a video's source (the video plane speaks tus over them): an upload is made
 * for one video with its length and metadata, receives its bytes in pieces at the offset it has
 * reached, and becomes the video's `{guid}/original` when the last byte arrives; then the video
 * goes the way of a PUT upload (VideoMedia.sourceStored).
 *
 * Nothing acknowledged is lost, on any instance: each piece streams into a blob of its own
 * (`<zone>/<uploadId>.<n>`, durable before it is recorded), and the upload is a stored document
 * whose offset and parts change only by a versioned write, so a piece that raced another for the
 * same offset (two instances, or a client retrying) is refused and its blob removed. The last piece
 * commits the parts as the segments of one file (no copy) in the transaction that marks the upload
 * finished and queues a check that the video is told of it (should this process die first). An
 * upload that never finishes is removed by a stored job at its expiry, its parts
 * released; it can be terminated before. Webhooks: PresignedUploadStarted when made,
 * PresignedUploadFinished at the last byte (before the encoding's own), PresignedUploadFailed when
 * terminated or expired.
 */
import { createHash, randomInt } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BlobTooLargeError, type BlobWritten } from '../../files/types.js';
import type { JobRunner } from '../../jobs/runner.js';
import type { FileRecord, Store, StoredDoc } from '../../store/types.js';
import { type AppError, errors } from '../errors.js';
import { parentOf } from '../files/paths.js';
import { multipartEtag } from '../s3/etag.js';
import { blobKey, DEAD_BLOB_GRACE_MS, type FileService } from '../files/service.js';
import type { SweptBlob } from '../files/sweeper.js';
import type { Clock } from '../principal.js';
import type { VideoMedia } from './media.js';
import { authorizePresigned, type PresignedAccess, type PresignedCredentials } from './presigned.js';
import { RunningDigests } from './running-digests.js';
import { GUID, type VideoService } from './service.js';
import type { LibraryAccess } from './types.js';
import type { WebhookDeliveries } from './webhook-deliveries.js';
import { WEBHOOK_STATUS, type WebhookStatus } from './webhooks.js';

/** How long an upload may take from its creation; then it is removed, whatever it holds. */
export const RESUMABLE_UPLOAD_LIFETIME_MS = 24 * 3_600_000;
export const UPLOAD_EXPIRY_JOB = 'video.upload-expiry';
/** Runs a while after an upload's last byte: tells the video of its source if the request that stored it could not. */
export const UPLOAD_FINISHED_JOB = 'video.upload-finished';
const FINISHED_CHECK_DELAY_MS = 60_000;
const KIND = 'videoUpload';
const MAX_TITLE_LENGTH = 1000;
/** A MIME type the client names (`filetype`), kept as the source's content type. */
const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}$/;

export interface UploadPart {
  key: string;
  size: number;
  sha256: string;
  md5: string;
}

export interface ResumableUpload {
  id: string;
  libraryId: number;
  videoGuid: string;
  length: number;
  /** Bytes stored and recorded so far. */
  offset: number;
  /** The metadata as the client sent it, answered back as it came. */
  metadata: Record<string, string | null>;
  contentType: string;
  parts: UploadPart[];
  createdAt: string;
  expiresAt: string;
  /** The last byte came: the parts are the video's source file, of this SHA-256. */
  finished: boolean;
  sha256?: string;
  /** The video was told of its source (Uploaded, its encoding queued): a finished upload whose process died before is told by the check job. */
  announced?: boolean;
}

/** What the client's metadata sets on the video, checked. */
export interface UploadSettings {
  title: string;
  contentType: string;
  collectionId: string;
  thumbnailTime: number | null;
}

/** The video an upload is made for (a presigned request's `LibraryId` and `VideoId`, once checked). */
export interface PresignedTarget {
  libraryId: number;
  videoId: string;
}

export interface ResumableUploadsDeps {
  store: Store;
  files: FileService;
  jobs: JobRunner;
  videos: VideoService;
  media: VideoMedia;
  webhooks: Pick<WebhookDeliveries, 'notify'>;
  clock: Clock;
}

export class ResumableUploads {
  private readonly digests = new RunningDigests();

  constructor(private readonly deps: ResumableUploadsDeps) {
    deps.jobs.register(UPLOAD_EXPIRY_JOB, (payload) => this.expire((payload as { uploadId: string }).uploadId));
    deps.jobs.register(UPLOAD_FINISHED_JOB, (payload) => this.checkAnnounced((payload as { uploadId: string }).uploadId));
  }

  /** What the presigned headers of a request open (presigned.ts), judged at the store's time. */
  authorize(credentials: PresignedCredentials): Promise<PresignedAccess> {
    return authorizePresigned(this.deps.videos.keys, credentials, this.deps.clock());
  }

  /** When an upload made now expires. */
  expiryOfNew(): Date {
    return new Date(this.deps.clock().getTime() + RESUMABLE_UPLOAD_LIFETIME_MS);
  }

  /** The largest upload: the largest file. */
  get maxLength(): number {
    return this.deps.files.maxFileBytes;
  }

  /**
   * Checks that an upload of `length` bytes with `metadata` may be made for the video: it exists in
   * the library, has no source yet, and the metadata names a title, a type and (optionally) a
   * collection of the library and a thumbnail time. Writes nothing.
   */
  async check(presigned: PresignedAccess, length: number, metadata: Record<string, string | null>): Promise<UploadSettings> {
    if (!Number.isSafeInteger(length) || length < 0)
      throw errors.validation('Upload-Length', 'The Upload-Length must be a number of bytes.', 'video.upload_length');
    if (length > this.maxLength) throw errors.payloadTooLarge(`A video may have at most ${this.maxLength} bytes.`, 'video.upload_too_large');
    const filetype = metadata['filetype']?.trim();
    const title = metadata['title']?.trim();
    if (!filetype) throw errors.validation('filetype', 'The upload metadata must hold the filetype (the MIME type of the video).', 'video.upload_metadata');
    if (!title) throw errors.validation('title', 'The upload metadata must hold the title of the video.', 'video.upload_metadata');
    if (title.length > MAX_TITLE_LENGTH)
      throw errors.validation('title', `The title may have at most ${MAX_TITLE_LENGTH} characters.`, 'video.upload_metadata');
    const thumbnail = metadata['thumbnailTime']?.trim();
    if (thumbnail && !/^[0-9]{1,10}$/.test(thumbnail)) {
      throw errors.validation('thumbnailTime', 'The thumbnailTime must be a whole number of milliseconds.', 'video.upload_metadata');
    }
    const collectionId = metadata['collection']?.trim() ?? '';
    if (collectionId !== '') {
      if (!GUID.test(collectionId)) throw errors.validation('collection', `The library has no collection ${collectionId}.`, 'video.collection_not_found');
      await this.deps.videos.collectionOf(presigned.access, collectionId, 'collection');
    }
    await this.deps.media.expectNoSource(presigned.access, presigned.videoId);
    return {
      title,
      contentType: MIME_TYPE.test(filetype) ? filetype.toLowerCase() : 'application/octet-stream',
      collectionId,
      thumbnailTime: thumbnail ? Number(thumbnail) : null,
    };
  }

  /** Makes upload `id` for the presigned video (checked again here), sets the video's title, collection and thumbnail time from the metadata. */
  async create(id: string, target: PresignedTarget, length: number, metadata: Record<string, string | null>): Promise<ResumableUpload> {
    const library = await this.deps.videos.keys.find(target.libraryId);
    if (!library) throw errors.notFound('video');
    const access: LibraryAccess = { ...library, canWrite: true };
    const { videoId } = target;
    const settings = await this.check({ access, videoId }, length, metadata);
    const now = this.deps.clock();
    const upload: ResumableUpload = {
      id,
      libraryId: access.libraryId,
      videoGuid: videoId,
      length,
      offset: 0,
      metadata,
      contentType: settings.contentType,
      parts: [],
      createdAt: now.toISOString(),
      expiresAt: this.expiryOfNew().toISOString(),
      finished: false,
    };
    await this.describeVideo(access, videoId, settings);
    await this.deps.store.docs.insert(KIND, { id, accountId: access.accountId, parentId: String(access.libraryId), linkId: videoId, doc: upload });
    await this.deps.jobs.enqueue(UPLOAD_EXPIRY_JOB, { uploadId: id }, RESUMABLE_UPLOAD_LIFETIME_MS);
    await this.announce(upload, WEBHOOK_STATUS.PresignedUploadStarted);
    return upload;
  }

  /** The upload, while it is there and not expired; 404 otherwise. */
  async get(id: string): Promise<ResumableUpload> {
    return (await this.stored(id)).doc;
  }

  /**
   * Stores `body` as the upload's next bytes, which must start at `offset` (where the upload is).
   * Answers the upload as it is after them; after the last byte, the video's source is stored and
   * its encoding queued. A body that ends early (a client cut off) still keeps what came.
   * `atMost`: the most bytes the body can hold (its Content-Length), when known.
   */
  async append(id: string, offset: number, body: Readable, atMost?: number): Promise<ResumableUpload> {
    const stored = await this.stored(id);
    const upload = stored.doc;
    if (upload.finished) throw errors.conflict('The upload is complete.', 'video.upload_complete');
    if (upload.offset !== offset) throw errors.conflict(`The upload is at offset ${upload.offset}, not ${offset}.`, 'video.upload_offset');
    const library = await this.libraryOf(upload);
    // A number no other piece of the upload has (a store sequence would cost a write, and a sync, per piece).
    const key = blobKey(library.zone.zoneId, id, randomInt(1, 2 ** 47));
    // A body that is the whole upload needs no running hash: its blob's digest is the file's.
    const whole = offset === 0 && atMost === upload.length;
    const digest = whole ? { body, done: () => undefined } : this.digests.through(id, offset, body);
    let written: BlobWritten;
    try {
      written = await this.deps.files.blobs.write(key, digest.body, { maxBytes: upload.length - offset });
    } catch (error) {
      if (error instanceof BlobTooLargeError) throw errors.payloadTooLarge('The body goes past the Upload-Length of the upload.', 'video.upload_too_large');
      throw error;
    }
    if (written.size === 0) {
      await this.deps.files.blobs.delete(key);
      return upload;
    }
    const next: ResumableUpload = {
      ...upload,
      offset: offset + written.size,
      parts: [...upload.parts, { key, size: written.size, sha256: written.sha256, md5: written.md5 }],
    };
    let recorded = false;
    try {
      if (next.offset < next.length) {
        recorded = await this.deps.store.docs.update(KIND, stored.accountId, this.change(stored, next));
        if (!recorded) throw raced();
        digest.done(written.size);
        return next;
      }
      digest.done(written.size);
      const finished = await this.commitSource(library, stored, next);
      recorded = true;
      await this.announceSource(library, finished);
      return finished;
    } finally {
      if (!recorded) {
        this.digests.forget(id);
        await this.deps.files.blobs.delete(key).catch(() => undefined);
      }
    }
  }

  /** Ends an upload before its last byte (the client's termination): its parts are released. */
  async terminate(id: string): Promise<void> {
    const stored = await this.stored(id);
    if (!(await this.remove(stored))) throw raced();
  }

  /** Whether a blob the files sweeper found is a part of an upload in progress (`<zone>/<uploadId>.<n>`). */
  async claims(blob: SweptBlob): Promise<boolean> {
    if (!GUID.test(blob.guid)) return false;
    const found = await this.deps.store.docs.getAnyAccount<ResumableUpload>(KIND, blob.guid);
    return found?.doc.parts.some((p) => p.key === blob.key) ?? false;
  }

  /** The upload job's end: an upload still there at its expiry goes, its parts with it unless they became the source. */
  private async expire(id: string): Promise<void> {
    const stored = await this.deps.store.docs.getAnyAccount<ResumableUpload>(KIND, id);
    if (!stored) return;
    // A piece recorded meanwhile changed its version: the job runs again shortly and finds it as it is.
    if (!(await this.remove(stored))) throw raced();
  }

  /**
   * Tells the video its source is stored (PresignedUploadFinished, then as a PUT's end: Uploaded,
   * its encoding queued), and records that it was told.
   */
  private async announceSource(library: Omit<LibraryAccess, 'canWrite'>, upload: ResumableUpload): Promise<void> {
    await this.announce(upload, WEBHOOK_STATUS.PresignedUploadFinished);
    await this.deps.media.sourceStored(library, upload.videoGuid, upload.sha256 ?? null);
    for (let attempt = 0; attempt < 3; attempt++) {
      const stored = await this.deps.store.docs.getAnyAccount<ResumableUpload>(KIND, upload.id);
      if (!stored || (await this.deps.store.docs.update(KIND, stored.accountId, this.change(stored, { ...stored.doc, announced: true })))) return;
    }
  }

  /** The check after a last byte: an upload finished but never announced (its process died in between) is announced now. */
  private async checkAnnounced(id: string): Promise<void> {
    const stored = await this.deps.store.docs.getAnyAccount<ResumableUpload>(KIND, id);
    if (!stored?.doc.finished || stored.doc.announced) return;
    const library = await this.deps.videos.keys.find(stored.doc.libraryId);
    const video = library && (await this.deps.videos.videos.find(this.deps.store, library.accountId, stored.doc.videoGuid));
    // The library or the video is gone: there is no one to tell.
    if (!library || !video) return;
    await this.announceSource(library, stored.doc);
  }

  /** Removes the upload if it is still the version read; a finished one keeps its parts (the file's segments). */
  private async remove(stored: StoredDoc<ResumableUpload>): Promise<boolean> {
    const upload = stored.doc;
    const removed = await this.deps.store.transaction(async (tx) => {
      if (!(await tx.docs.update(KIND, stored.accountId, this.change(stored, upload)))) return false;
      await tx.docs.delete(KIND, stored.accountId, upload.id);
      if (!upload.finished && upload.parts.length > 0)
        await tx.deadBlobs.add(
          upload.parts.map((p) => p.key),
          this.deps.clock().getTime() + DEAD_BLOB_GRACE_MS,
        );
      return true;
    });
    if (removed && !upload.finished) await this.announce(upload, WEBHOOK_STATUS.PresignedUploadFailed);
    return removed;
  }

  /**
   * Makes the parts the file `{guid}/original` in the transaction that records the last part and
   * marks the upload finished; answers the SHA-256 of the whole (read again when there are several
   * parts, as an S3 multipart upload's completion does).
   */
  private async commitSource(library: Omit<LibraryAccess, 'canWrite'>, stored: StoredDoc<ResumableUpload>, last: ResumableUpload): Promise<ResumableUpload> {
    await this.deps.media.expectNoSource(library, last.videoGuid);
    const segments = last.parts.map((p) => ({ key: p.key, size: p.size }));
    // One part: its digests are the file's. Several: the file's SHA-256 is the one computed as they
    // came (or, received elsewhere, read again), and its ETag is made of the parts' MD5s, as S3
    // makes a multipart object's.
    const only = last.parts.length === 1 ? last.parts[0] : undefined;
    const sha256 = this.digests.take(last.id, last.length);
    const digests = only ?? { sha256: sha256 ?? (await this.sha256Of(segments)), md5: multipartEtag(last.parts.map((p) => p.md5)) };
    const now = this.deps.clock().toISOString();
    const path = `${last.videoGuid}/original`;
    const file: FileRecord = {
      zoneId: library.zone.zoneId,
      accountId: library.accountId,
      path,
      parent: parentOf(path),
      isDirectory: false,
      size: last.length,
      sha256: digests.sha256,
      md5: digests.md5,
      contentType: last.contentType,
      // The parts' keys carry the upload's id: the sweeper asks the file about them by it.
      guid: last.id,
      blobs: segments,
      metadata: null,
      createdAt: now,
      changedAt: now,
    };
    const finished: ResumableUpload = { ...last, finished: true, sha256: digests.sha256 };
    await this.deps.files.commit(library.zone, file, async (tx) => {
      if (!(await tx.docs.update(KIND, stored.accountId, this.change(stored, finished)))) throw raced();
      await tx.jobs.enqueue(UPLOAD_FINISHED_JOB, { uploadId: last.id }, this.deps.clock().getTime() + FINISHED_CHECK_DELAY_MS);
    });
    return finished;
  }

  private async sha256Of(segments: { key: string; size: number }[]): Promise<string> {
    const sha256 = createHash('sha256');
    for await (const chunk of await this.deps.files.read({ blobs: segments } as FileRecord)) sha256.update(chunk as Buffer);
    return sha256.digest('hex');
  }

  /** Sets what the metadata says of the video: its title, its collection, where its thumbnail is taken. */
  private async describeVideo(access: LibraryAccess, guid: string, settings: UploadSettings): Promise<void> {
    const { videos } = this.deps;
    await this.deps.store.transaction(async (tx) => {
      const current = await videos.videos.get(tx, access.accountId, guid);
      const next = { ...current.doc, title: settings.title, thumbnailTime: settings.thumbnailTime ?? current.doc.thumbnailTime };
      if (settings.collectionId !== '') next.collectionId = settings.collectionId;
      await videos.videos.update(tx, access.accountId, current, next);
    });
  }

  private async stored(id: string): Promise<StoredDoc<ResumableUpload>> {
    const found = GUID.test(id) ? await this.deps.store.docs.getAnyAccount<ResumableUpload>(KIND, id) : undefined;
    if (!found || (!found.doc.finished && Date.parse(found.doc.expiresAt) <= this.deps.clock().getTime())) throw errors.notFound('upload');
    return found;
  }

  private async libraryOf(upload: ResumableUpload): Promise<Omit<LibraryAccess, 'canWrite'>> {
    const library = await this.deps.videos.keys.find(upload.libraryId);
    if (!library) throw errors.notFound('upload');
    return library;
  }

  private change(stored: StoredDoc<ResumableUpload>, doc: ResumableUpload) {
    return { id: stored.id, version: stored.version, parentId: String(doc.libraryId), linkId: doc.videoGuid, doc };
  }

  private announce(upload: ResumableUpload, status: WebhookStatus): Promise<void> {
    // Queued as a stored job, in the order of the video's other announcements; a store that fails to take it loses only this one.
    return this.deps.webhooks.notify({ libraryId: upload.libraryId, videoGuid: upload.videoGuid, status }).catch(() => undefined);
  }
}

/** Another write reached the upload first (a piece at the same offset, a termination). */
function raced(): AppError {
  return errors.conflict('The upload changed while this request was writing; ask for its offset again.', 'video.upload_offset');
}
