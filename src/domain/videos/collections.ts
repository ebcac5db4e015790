/**
 * The collections of a library: named groups of its videos. A collection's figures (how many
 * videos, their bytes, a few of their ids) are counted from its videos when it is read, through
 * the videos' index on their collection, so they are never out of date.
 */
import { randomUUID } from 'node:crypto';
import type { CollectionBodyT, CollectionT } from '../../schemas/video.js';
import type { Store } from '../../store/types.js';
import type { LibraryAccess } from './types.js';
import type { VideoService } from './service.js';

export interface CollectionPageT {
  totalItems: number;
  currentPage: number;
  itemsPerPage: number;
  items: CollectionT[];
}

/** How many of its videos a collection shows as its preview. */
const PREVIEW_VIDEOS = 3;
const EVERY = Number.MAX_SAFE_INTEGER;

export class CollectionService {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
    private readonly videos: VideoService,
  ) {}

  async create(access: LibraryAccess, input: CollectionBodyT): Promise<CollectionT> {
    const guid = randomUUID();
    const doc = { videoLibraryId: access.libraryId, guid, name: input.name ?? '', dateCreated: this.clock().toISOString() };
    await this.videos.collections.insert(this.store, access.accountId, guid, doc);
    return { ...doc, videoCount: 0, totalSize: 0, previewVideoIds: null, previewImageUrls: null };
  }

  async get(access: LibraryAccess, guid: string, includeThumbnails: boolean): Promise<CollectionT> {
    const found = await this.videos.collectionOf(access, guid);
    return this.withFigures(access, found.doc, includeThumbnails);
  }

  /** Newest first by default (`orderBy=date`), or by name; `search` keeps names that contain it. */
  async list(
    access: LibraryAccess,
    q: { page: number; itemsPerPage: number; search?: string | null | undefined; orderBy?: string | null | undefined; includeThumbnails: boolean },
  ): Promise<CollectionPageT> {
    const needle = (q.search ?? '').trim().toLowerCase();
    const all = (
      await this.videos.collections.list(this.store, access.accountId, { parentId: String(access.libraryId), offset: 0, limit: EVERY })
    ).items.reverse();
    const matching = needle === '' ? all : all.filter((c) => (c.name ?? '').toLowerCase().includes(needle));
    if ((q.orderBy ?? '').trim().toLowerCase() === 'name') matching.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
    const offset = (q.page - 1) * q.itemsPerPage;
    const page = matching.slice(offset, offset + q.itemsPerPage);
    const items = await Promise.all(page.map((c) => this.withFigures(access, c, q.includeThumbnails)));
    return { totalItems: matching.length, currentPage: q.page, itemsPerPage: q.itemsPerPage, items };
  }

  async rename(access: LibraryAccess, guid: string, input: CollectionBodyT): Promise<void> {
    await this.videos.collectionOf(access, guid);
    if (input.name == null) return;
    const name = input.name;
    await this.store.transaction(async (tx) => {
      const current = await this.videos.collections.get(tx, access.accountId, guid);
      await this.videos.collections.update(tx, access.accountId, current, { ...current.doc, name });
    });
  }

  /** Deletes the collection; its videos stay in the library, in no collection. */
  async delete(access: LibraryAccess, guid: string): Promise<void> {
    await this.videos.collectionOf(access, guid);
    await this.store.transaction(async (tx) => {
      const members = await this.videos.videos.list(tx, access.accountId, { parentId: String(access.libraryId), linkId: guid, offset: 0, limit: EVERY });
      for (const video of members.items) {
        const stored = await this.videos.videos.get(tx, access.accountId, video.guid);
        await this.videos.videos.update(tx, access.accountId, stored, { ...stored.doc, collectionId: '' });
      }
      await this.videos.collections.delete(tx, access.accountId, guid);
    });
  }

  private async withFigures(
    access: LibraryAccess,
    c: CollectionT | Omit<CollectionT, 'videoCount' | 'totalSize' | 'previewVideoIds' | 'previewImageUrls'>,
    thumbnails: boolean,
  ): Promise<CollectionT> {
    const members = (
      await this.videos.videos.list(this.store, access.accountId, { parentId: String(access.libraryId), linkId: c.guid ?? '', offset: 0, limit: EVERY })
    ).items;
    const preview = members.slice(-PREVIEW_VIDEOS).reverse();
    return {
      videoLibraryId: c.videoLibraryId,
      guid: c.guid,
      name: c.name,
      videoCount: members.length,
      totalSize: members.reduce((sum, v) => sum + v.storageSize, 0),
      previewVideoIds: preview.length > 0 ? preview.map((v) => v.guid).join(',') : null,
      previewImageUrls: thumbnails ? preview.map((v) => this.videos.view(access, v).thumbnailUrl ?? '').filter((u) => u !== '') : null,
    };
  }
}
