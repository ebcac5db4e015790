/**
 * S3 multipart uploads. Each part streams into a blob of its own as it arrives (never held in
 * memory) and is recorded in the store once durable, so an acknowledged part survives a restart.
 * Completing keeps the parts as they are, as the segments of one file (see domain/files/segments.ts),
 * instead of copying them: the file, the upload's removal and the unused parts' release commit in
 * one transaction. Part blobs are named `<zone>/<uploadId>.<n>`, so the files sweeper finds their
 * owner: the upload while it is in progress, the file (whose guid is the upload id) after; and it
 * keeps only the parts they record, so a part a crash cut short is swept even once completed.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BlobTooLargeError, type BlobWritten } from '../../files/types.js';
import type { FileRecord, S3Upload, S3UploadPart, Store } from '../../store/types.js';
import { AppError } from '../errors.js';
import { keyPath, parentOf } from '../files/paths.js';
import { DEAD_BLOB_GRACE_MS, type FileService } from '../files/service.js';
import type { ZoneAccess } from '../files/types.js';
import type { Clock } from '../principal.js';
import { bareEtag, multipartEtag } from './etag.js';

/** S3's limits: parts are numbered 1 to 10,000, and every part but the last has at least 5 MiB. */
export const MAX_PART_NUMBER = 10_000;
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** S3's largest part. */
const MAX_PART_BYTES = 5 * 1024 * 1024 * 1024;

/** An S3 error the plane answers with its own code (`NoSuchUpload`, `InvalidPart` …). */
export class S3DomainError extends AppError {
  constructor(
    readonly s3Code: string,
    message: string,
    readonly status: number,
  ) {
    super(status === 404 ? 'not_found' : 'validation', message, `s3.${s3Code}`);
  }
}

const noSuchUpload = () =>
  new S3DomainError(
    'NoSuchUpload',
    'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
    404,
  );

export interface PartWritten {
  part: S3UploadPart;
}

export class MultipartUploads {
  constructor(
    private readonly store: Store,
    private readonly files: FileService,
    private readonly clock: Clock,
  ) {}

  get maxPartBytes(): number {
    return Math.min(MAX_PART_BYTES, this.files.maxFileBytes);
  }

  async create(zone: ZoneAccess, key: string, options: { contentType: string | null; metadata: Record<string, string> | null }): Promise<S3Upload> {
    const target = keyPath(key);
    const upload: S3Upload = {
      uploadId: randomUUID(),
      zoneId: zone.zoneId,
      accountId: zone.accountId,
      key: target.path,
      contentType: options.contentType,
      metadata: options.metadata,
      createdAt: this.clock().toISOString(),
    };
    await this.store.s3Uploads.create(upload);
    return upload;
  }

  async get(zone: Pick<ZoneAccess, 'zoneId'>, uploadId: string, key: string): Promise<S3Upload> {
    const upload = await this.store.s3Uploads.get(zone.zoneId, uploadId);
    if (!upload || upload.key !== key) throw noSuchUpload();
    return upload;
  }

  /**
   * Streams `body` into the part's blob and records it, replacing an earlier part with its number.
   * `check` sees the written bytes' digests before anything is recorded (the payload hash).
   */
  async putPart(
    zone: ZoneAccess,
    upload: S3Upload,
    partNumber: number,
    body: Readable,
    options: { signal?: AbortSignal | undefined; check?: (written: BlobWritten) => void },
  ): Promise<S3UploadPart> {
    const n = await this.store.nextId('s3UploadPart');
    const blobKey = `${zone.zoneId}/${upload.uploadId}.${n}`;
    let written: BlobWritten;
    try {
      written = await this.files.blobs.write(blobKey, body, { maxBytes: this.maxPartBytes, signal: options.signal });
    } catch (error) {
      if (error instanceof BlobTooLargeError) throw new S3DomainError('EntityTooLarge', `A part may have at most ${this.maxPartBytes} bytes.`, 400);
      throw error;
    }
    try {
      options.check?.(written);
      const part: S3UploadPart = {
        uploadId: upload.uploadId,
        partNumber,
        blobKey,
        size: written.size,
        md5: written.md5,
        sha256: written.sha256,
        uploadedAt: this.clock().toISOString(),
      };
      await this.store.transaction(async (tx) => {
        const outcome = await tx.s3Uploads.putPart(part);
        if (!outcome) throw noSuchUpload();
        if (outcome.replaced) await tx.deadBlobs.add([outcome.replaced.blobKey], this.clock().getTime() + DEAD_BLOB_GRACE_MS);
      });
      return part;
    } catch (error) {
      await this.files.blobs.delete(blobKey).catch(() => {});
      throw error;
    }
  }

  async parts(upload: S3Upload, after: number, limit: number): Promise<S3UploadPart[]> {
    return this.store.s3Uploads.parts(upload.uploadId, after, limit);
  }

  async list(zone: Pick<ZoneAccess, 'zoneId'>, query: { prefix: string; after?: { key: string; uploadId: string }; limit: number }): Promise<S3Upload[]> {
    return this.store.s3Uploads.list(zone.zoneId, query);
  }

  async abort(zone: Pick<ZoneAccess, 'zoneId'>, upload: S3Upload): Promise<void> {
    await this.store.transaction(async (tx) => {
      const parts = await tx.s3Uploads.remove(upload.uploadId);
      if (!parts) throw noSuchUpload();
      if (parts.length > 0)
        await tx.deadBlobs.add(
          parts.map((p) => p.blobKey),
          this.clock().getTime() + DEAD_BLOB_GRACE_MS,
        );
    });
    void zone;
  }

  /** Makes the listed parts, in order, the object at the upload's key. */
  async complete(zone: ZoneAccess, upload: S3Upload, requested: { partNumber: number; etag: string }[]): Promise<FileRecord> {
    if (requested.length === 0) throw new S3DomainError('MalformedXML', 'You must specify at least one part.', 400);
    for (let i = 1; i < requested.length; i++) {
      if (requested[i]!.partNumber <= requested[i - 1]!.partNumber)
        throw new S3DomainError('InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.', 400);
    }
    const stored = new Map<number, S3UploadPart>();
    for (let after = 0; ; ) {
      const page = await this.store.s3Uploads.parts(upload.uploadId, after, 1000);
      for (const p of page) stored.set(p.partNumber, p);
      if (page.length < 1000) break;
      after = page.at(-1)!.partNumber;
    }
    const chosen = requested.map((r) => {
      const part = stored.get(r.partNumber);
      if (!part || bareEtag(r.etag) !== part.md5)
        throw new S3DomainError(
          'InvalidPart',
          "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
          400,
        );
      return part;
    });
    chosen.forEach((part, i) => {
      if (i < chosen.length - 1 && part.size < MIN_PART_BYTES)
        throw new S3DomainError('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', 400);
    });
    const size = chosen.reduce((sum, p) => sum + p.size, 0);
    if (size > this.files.maxFileBytes) throw new S3DomainError('EntityTooLarge', `An object may have at most ${this.files.maxFileBytes} bytes.`, 400);
    const segments = chosen.map((p) => ({ key: p.blobKey, size: p.size }));
    // The file API describes every file with the SHA-256 of its bytes: read once, here, as S3 takes its time completing too.
    const sha256 = createHash('sha256');
    for await (const chunk of await this.files.read({ blobs: segments } as FileRecord)) sha256.update(chunk as Buffer);
    const now = this.clock().toISOString();
    const file: FileRecord = {
      zoneId: zone.zoneId,
      accountId: zone.accountId,
      path: upload.key,
      parent: parentOf(upload.key),
      isDirectory: false,
      size,
      sha256: sha256.digest('hex'),
      md5: multipartEtag(chosen.map((p) => p.md5)),
      contentType: upload.contentType,
      guid: upload.uploadId,
      blobs: segments,
      metadata: upload.metadata,
      createdAt: now,
      changedAt: now,
    };
    return this.files.commit(zone, file, async (tx) => {
      const parts = await tx.s3Uploads.remove(upload.uploadId);
      if (!parts) throw noSuchUpload();
      const current = new Map(parts.map((p) => [p.blobKey, p]));
      // A part uploaded again while its bytes were being read: the client must complete again.
      if (chosen.some((p) => !current.has(p.blobKey))) throw new S3DomainError('InvalidPart', 'A part changed while the upload was being completed.', 400);
      const used = new Set(chosen.map((p) => p.blobKey));
      const unused = parts.filter((p) => !used.has(p.blobKey)).map((p) => p.blobKey);
      if (unused.length > 0) await tx.deadBlobs.add(unused, this.clock().getTime() + DEAD_BLOB_GRACE_MS);
    });
  }
}
