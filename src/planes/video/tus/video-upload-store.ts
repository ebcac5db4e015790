/**
 * The tus server's DataStore over the domain's resumable uploads (domain/videos/resumable-uploads.ts):
 * where the tus handlers create, read, write and terminate an upload, translated one to one, and
 * the domain's errors turned into the status and plain-text body tus answers with.
 *
 * Expiry is the domain's (a stored job, on the store's clock): `getExpiration()` answers 0, so the
 * tus handlers never judge an upload by the process's own clock, and `getUpload` refuses one past
 * its time. The route sets `Upload-Expires` itself.
 */
import type { Readable } from 'node:stream';
import { DataStore, Upload } from '@tus/server';
import { appErrorOf } from '../../../domain/errors.js';
import type { PresignedTarget, ResumableUpload, ResumableUploads } from '../../../domain/videos/resumable-uploads.js';
import { statusOf } from '../../common/errors.js';

/** `upload.storage.type` of an upload the route made: its `path` is `<libraryId>/<videoId>` (see storageOf). */
const STORAGE_TYPE = 'video';

/** Where a new upload goes, as the route tells the store (the tus handlers hand the store nothing but the upload). */
export const storageOf = (target: PresignedTarget) => ({ type: STORAGE_TYPE, path: `${target.libraryId}/${target.videoId}` });

export class VideoUploadStore extends DataStore {
  constructor(private readonly uploads: ResumableUploads) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  override async create(upload: Upload): Promise<Upload> {
    const [libraryId, videoId] = upload.storage?.type === STORAGE_TYPE ? upload.storage.path.split('/') : [];
    if (!libraryId || !videoId || upload.size === undefined) throw { status_code: 500, body: 'The upload was made without its video.\n' };
    await tusErrors(() => this.uploads.create(upload.id, { libraryId: Number(libraryId), videoId }, upload.size!, upload.metadata ?? {}));
    return upload;
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    // The tus handler hands over the body through its limiter, whose bound is the request's
    // Content-Length (or what the upload still lacks): most the piece can hold.
    const bound = (stream as unknown as { maxSize?: unknown }).maxSize;
    return (await tusErrors(() => this.uploads.append(id, offset, stream, typeof bound === 'number' ? bound : undefined))).offset;
  }

  override async getUpload(id: string): Promise<Upload> {
    return asTus(await tusErrors(() => this.uploads.get(id)));
  }

  override async remove(id: string): Promise<void> {
    await tusErrors(() => this.uploads.terminate(id));
  }

  override getExpiration(): number {
    return 0;
  }
}

function asTus(upload: ResumableUpload): Upload {
  return new Upload({ id: upload.id, size: upload.length, offset: upload.offset, metadata: upload.metadata });
}

/** Runs `work`, answering a domain error as tus answers its own: `{ status_code, body }`. */
async function tusErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const known = appErrorOf(error);
    if (known) throw { status_code: statusOf(known.code), body: `${known.message}\n` };
    throw error;
  }
}
