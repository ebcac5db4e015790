/**
 * The images of a video library: its watermark (which sets `HasWatermark` and moves
 * `WatermarkVersion`), and the thumbnail and watermark of its live streams. Bytes are checked to
 * be a PNG, JPEG, GIF or WebP image of sensible size, then kept in the files backend under
 * `videolibrary-<id>/<uuid>` — a prefix no storage zone's blobs can have (theirs start with the
 * zone's numeric id) — written before the metadata commits, as files are. A replaced or deleted
 * image's blob is removed after a minute of grace; the files sweeper asks `claims()` before it
 * treats a blob under such a prefix as an orphan.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { VideoLibraryT } from '../../schemas/video-library.js';
import type { Secrets } from '../../security/secrets.js';
import type { BlobStore } from '../../files/types.js';
import type { Store, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import { DEAD_BLOB_GRACE_MS } from '../files/service.js';
import type { Clock, Principal } from '../principal.js';
import { readImage } from './image-format.js';
import type { VideoLibraryService } from './service.js';

export const IMAGE_SLOTS = ['watermark', 'live-thumbnail', 'live-watermark'] as const;
export type ImageSlot = (typeof IMAGE_SLOTS)[number];

/** The platform's limit for these uploads. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** Larger images are not a watermark or a thumbnail but a mistake. */
export const MAX_IMAGE_SIDE = 8192;

export interface ImageDoc {
  LibraryId: number;
  Slot: ImageSlot;
  BlobKey: string;
  ContentType: string;
  Width: number;
  Height: number;
  Size: number;
  Sha256: string;
  DateUploaded: string;
}

export const imagePrefix = (libraryId: number) => `videolibrary-${libraryId}/`;
const imageId = (libraryId: number, slot: ImageSlot) => `${libraryId}-${slot}`;
const LIBRARY_PREFIX = /^videolibrary-(\d+)$/;

export interface StoredImage {
  contentType: string;
  bytes: Buffer;
}

export class VideoLibraryImages {
  private readonly images: DocumentRepo<ImageDoc>;

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly libraries: VideoLibraryService,
  ) {
    this.images = new DocumentRepo<ImageDoc>('videoLibraryImage', 'image', secrets, [], (doc) => ({ parentId: String(doc.LibraryId) }));
  }

  async put(principal: Principal, libraryId: number, slot: ImageSlot, body: Buffer | undefined): Promise<void> {
    const accountId = principal.accountId;
    // The library first: another account's id is a 404 whatever the body.
    await this.libraries.libraries.get(this.store, accountId, libraryId);
    if (!body || body.length === 0) throw errors.validation('body', 'Send the image as the request body.');
    if (body.length > MAX_IMAGE_BYTES) throw errors.payloadTooLarge(`The image is larger than ${MAX_IMAGE_BYTES} bytes.`);
    const info = readImage(body);
    if (!info) throw errors.validation('body', 'The body is not a PNG, JPEG, GIF or WebP image.', 'videolibrary.image_invalid');
    if (info.width < 1 || info.height < 1 || info.width > MAX_IMAGE_SIDE || info.height > MAX_IMAGE_SIDE) {
      throw errors.validation('body', `The image is ${info.width}x${info.height}; each side must be 1 to ${MAX_IMAGE_SIDE} pixels.`, 'videolibrary.image_size');
    }
    const key = `${imagePrefix(libraryId)}${randomUUID()}`;
    const written = await this.blobs.write(key, Readable.from([body]), { maxBytes: MAX_IMAGE_BYTES });
    const now = this.clock();
    const doc: ImageDoc = {
      LibraryId: libraryId,
      Slot: slot,
      BlobKey: key,
      ContentType: info.contentType,
      Width: info.width,
      Height: info.height,
      Size: written.size,
      Sha256: written.sha256,
      DateUploaded: now.toISOString(),
    };
    try {
      await this.store.transaction(async (tx) => {
        const library = await this.libraries.libraries.get(tx, accountId, libraryId);
        const existing = await this.images.find(tx, accountId, imageId(libraryId, slot));
        if (existing) {
          await this.images.update(tx, accountId, existing, doc);
          await tx.deadBlobs.add([existing.doc.BlobKey], now.getTime() + DEAD_BLOB_GRACE_MS);
        } else {
          await this.images.insert(tx, accountId, imageId(libraryId, slot), doc);
        }
        if (slot === 'watermark') await this.changeWatermark(tx, accountId, library, true);
      });
    } catch (error) {
      // Nothing points at the bytes: they go now rather than at the next sweep.
      await this.blobs.delete(key).catch(() => {});
      throw error;
    }
  }

  /** Removing an image that is not there changes nothing (a retried delete is harmless). */
  async remove(principal: Principal, libraryId: number, slot: ImageSlot): Promise<void> {
    const accountId = principal.accountId;
    await this.store.transaction(async (tx) => {
      const library = await this.libraries.libraries.get(tx, accountId, libraryId);
      const existing = await this.images.find(tx, accountId, imageId(libraryId, slot));
      if (existing) {
        await this.images.delete(tx, accountId, existing.id);
        await tx.deadBlobs.add([existing.doc.BlobKey], this.clock().getTime() + DEAD_BLOB_GRACE_MS);
      }
      if (slot === 'watermark' && library.doc.HasWatermark) await this.changeWatermark(tx, accountId, library, false);
    });
  }

  async read(principal: Principal, libraryId: number, slot: ImageSlot): Promise<StoredImage> {
    await this.libraries.libraries.get(this.store, principal.accountId, libraryId);
    const image = await this.images.find(this.store, principal.accountId, imageId(libraryId, slot));
    if (!image) throw errors.notFound(slot === 'live-thumbnail' ? 'live thumbnail' : slot === 'live-watermark' ? 'live watermark' : 'watermark');
    const bytes = await this.blobs.readBytes(image.doc.BlobKey, { start: 0, end: image.doc.Size - 1 });
    return { contentType: image.doc.ContentType, bytes };
  }

  /** Whether a blob under a library's prefix is one of its images (for the files sweeper). */
  async claims(zoneId: string, guid: string): Promise<boolean> {
    const library = LIBRARY_PREFIX.exec(zoneId);
    if (!library) return false;
    const key = `${zoneId}/${guid}`;
    for (const slot of IMAGE_SLOTS) {
      const image = await this.images.findAnyAccount(this.store, imageId(Number(library[1]), slot));
      if (image?.doc.BlobKey === key) return true;
    }
    return false;
  }

  /** The library is being deleted: its images go with it. */
  /** Every image of a deleted library (cascades.ts). */
  async removeAll(tx: StoreTx, accountId: number, libraryId: number): Promise<void> {
    for (const slot of IMAGE_SLOTS) {
      const image = await this.images.find(tx, accountId, imageId(libraryId, slot));
      if (image) await this.images.delete(tx, accountId, image.id);
    }
    await tx.deadBlobs.add([imagePrefix(libraryId)], this.clock().getTime() + DEAD_BLOB_GRACE_MS);
  }

  private async changeWatermark(tx: StoreTx, accountId: number, library: { id: string; version: number; accountId: number; doc: VideoLibraryT }, has: boolean) {
    const doc = { ...library.doc, HasWatermark: has, WatermarkVersion: library.doc.WatermarkVersion + 1, DateModified: this.clock().toISOString() };
    await this.libraries.libraries.update(tx, accountId, library, doc);
  }
}
