/**
 * The videos of a library: create, read, list (paged, searched, ordered), update and delete, and
 * the one method the encoding and fetch jobs move a video along with (`recordProgress`), whose
 * status changes are announced to in-process listeners (the webhook sender) once stored.
 *
 * A video is a document of kind `video` under its library (`parentId`), linked to its collection
 * (`linkId`), so a collection's videos come from an index; its id is its GUID.
 */
import { randomUUID } from 'node:crypto';
import { VideoStatus, type VideoCreateBodyT, type VideoT, type VideoUpdateBodyT } from '../../schemas/video.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { AppError, errors } from '../errors.js';
import type { FileService } from '../files/service.js';
import type { Clock } from '../principal.js';
import type { LibraryKeys } from './library-access.js';
import { applyProgress } from './progress.js';
import type { CollectionDoc, LibraryAccess, VideoDoc, VideoEvents, VideoProgress, VideoStatusEvent } from './types.js';
import { bytesOfVideo } from './video-files.js';
import { videoSubject } from '../usage/video-metrics.js';

export interface VideoListQuery {
  page: number;
  itemsPerPage: number;
  search?: string | null | undefined;
  collection?: string | null | undefined;
  orderBy?: string | null | undefined;
}

export interface VideoPageT {
  totalItems: number;
  currentPage: number;
  itemsPerPage: number;
  items: VideoT[];
}

/** Orders of the list: by date (newest first, the platform's default) or by title. */
const ORDERS = ['date', 'title'] as const;
/** A progress write that loses a race with another reads again and retries, this often. */
const PROGRESS_ATTEMPTS = 20;
const EVERY = Number.MAX_SAFE_INTEGER;
export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class VideoService implements VideoEvents {
  readonly videos: DocumentRepo<VideoDoc>;
  readonly collections: DocumentRepo<CollectionDoc>;
  private readonly listeners = new Set<(event: VideoStatusEvent) => void>();

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly clock: Clock,
    private readonly files: FileService,
    readonly keys: LibraryKeys,
  ) {
    this.videos = new DocumentRepo<VideoDoc>('video', 'video', secrets, [], (v) => ({
      parentId: String(v.videoLibraryId),
      linkId: v.collectionId ? v.collectionId : null,
    }));
    this.collections = new DocumentRepo<CollectionDoc>('videoCollection', 'collection', secrets, [], (c) => ({ parentId: String(c.videoLibraryId) }));
  }

  /** The store, for the reports that list a library's videos. */
  storeOf(): Store {
    return this.store;
  }

  onStatus(listener: (event: VideoStatusEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async create(access: LibraryAccess, input: VideoCreateBodyT, guid: string = randomUUID()): Promise<VideoT> {
    const collectionId = input.collectionId ?? '';
    if (collectionId !== '') await this.collectionOf(access, collectionId, 'collectionId');
    const video = newVideo(access, guid, input.title, collectionId, input.thumbnailTime ?? null, this.clock().toISOString());
    await this.videos.insert(this.store, access.accountId, guid, video);
    return this.view(access, video);
  }

  async get(access: LibraryAccess, guid: string): Promise<VideoT> {
    return this.view(access, (await this.find(access, guid)).doc);
  }

  /** The stored video of the library (404 for another library's video, or none). */
  async find(access: Pick<LibraryAccess, 'libraryId' | 'accountId'>, guid: string) {
    // The id names the video's folder too, so only a GUID can be one.
    if (!GUID.test(guid)) throw errors.notFound('video');
    const found = await this.videos.find(this.store, access.accountId, guid);
    if (!found || found.doc.videoLibraryId !== access.libraryId) throw errors.notFound('video');
    return found;
  }

  async list(access: LibraryAccess, q: VideoListQuery): Promise<VideoPageT> {
    const order = (q.orderBy ?? '').trim().toLowerCase() || 'date';
    if (!(ORDERS as readonly string[]).includes(order)) throw errors.validation('orderBy', 'The orderBy must be date or title.');
    const needle = (q.search ?? '').trim().toLowerCase();
    const scope = { parentId: String(access.libraryId), ...(q.collection ? { linkId: q.collection } : {}) };
    const offset = (q.page - 1) * q.itemsPerPage;
    let items: VideoDoc[];
    let total: number;
    if (needle === '' && order === 'date') {
      // Newest first, paged by the store: the page is counted from the end of the insertion order.
      total = (await this.videos.list(this.store, access.accountId, { ...scope, offset: 0, limit: 0 })).total;
      const end = Math.max(0, total - offset);
      const start = Math.max(0, end - q.itemsPerPage);
      items = end === 0 ? [] : (await this.videos.list(this.store, access.accountId, { ...scope, offset: start, limit: end - start })).items.reverse();
    } else {
      // Titles are not indexed: a search or a title order reads the library's videos, then pages.
      const every = (await this.videos.list(this.store, access.accountId, { ...scope, offset: 0, limit: EVERY })).items;
      const matching = needle === '' ? every.reverse() : every.reverse().filter((v) => v.title.toLowerCase().includes(needle));
      if (order === 'title') matching.sort((a, b) => a.title.localeCompare(b.title));
      total = matching.length;
      items = matching.slice(offset, offset + q.itemsPerPage);
    }
    return { totalItems: total, currentPage: q.page, itemsPerPage: q.itemsPerPage, items: items.map((v) => this.view(access, v)) };
  }

  async update(access: LibraryAccess, guid: string, input: VideoUpdateBodyT): Promise<VideoT> {
    if (input.collectionId) await this.collectionOf(access, input.collectionId, 'collectionId');
    return this.store.transaction(async (tx) => {
      const current = await this.videos.get(tx, access.accountId, guid);
      if (current.doc.videoLibraryId !== access.libraryId) throw errors.notFound('video');
      const next: VideoDoc = { ...current.doc };
      if (input.title != null) next.title = input.title;
      if (input.collectionId != null) next.collectionId = input.collectionId;
      if (input.chapters != null) next.chapters = input.chapters;
      if (input.moments != null) next.moments = input.moments;
      if (input.metaTags != null) next.metaTags = input.metaTags;
      await this.videos.update(tx, access.accountId, current, next);
      return this.view(access, next);
    });
  }

  /** Removes the video's files (`{guid}/`), then the video and its figures: a retry after a failure finishes the job. */
  async delete(access: LibraryAccess, guid: string): Promise<void> {
    await this.find(access, guid);
    await this.removeFolder(access, guid);
    await this.store.transaction(async (tx) => {
      await this.videos.delete(tx, access.accountId, guid);
      await tx.usage.remove([videoSubject(guid)]);
    });
  }

  /** Removes everything under `{guid}/`; a folder that is not there is nothing to remove. */
  async removeFolder(access: Pick<LibraryAccess, 'zone'>, guid: string, sub = ''): Promise<void> {
    try {
      await this.files.remove(access.zone, { path: `${guid}/${sub}`, isDirectory: true });
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
    }
  }

  /**
   * Moves a video along (the encoding and fetch jobs): applied to the latest stored version, read
   * again and retried when another write came in between, so concurrent reports never lose one
   * another. A status change is announced to the `onStatus` listeners once stored.
   */
  async recordProgress(libraryId: number, guid: string, change: VideoProgress): Promise<VideoT> {
    const library = await this.keys.find(libraryId);
    if (!library) throw errors.notFound('video library');
    const storageSize = change.recountStorage ? await bytesOfVideo(this.files, library.zone, guid) : undefined;
    for (let attempt = 1; ; attempt++) {
      const current = await this.find(library, guid);
      const now = this.clock().toISOString();
      const next = applyProgress(current.doc, change, now, storageSize);
      try {
        await this.videos.update(this.store, library.accountId, current, next);
      } catch (error) {
        if (error instanceof AppError && error.code === 'conflict' && attempt < PROGRESS_ATTEMPTS) continue;
        throw error;
      }
      if (next.status !== current.doc.status)
        this.announce({ libraryId, accountId: library.accountId, guid, status: next.status, previous: current.doc.status, at: now });
      return this.view(library, next);
    }
  }

  /** The collection of the library (a 404 naming the field when it is not one). */
  async collectionOf(access: Pick<LibraryAccess, 'libraryId' | 'accountId'>, collectionId: string, field?: string) {
    const found = await this.collections.find(this.store, access.accountId, collectionId);
    if (!found || found.doc.videoLibraryId !== access.libraryId) {
      if (field) throw errors.validation(field, `The library has no collection ${collectionId}.`, 'video.collection_not_found');
      throw errors.notFound('collection');
    }
    return found;
  }

  /** The model as answered: the stored video with its thumbnail's address on the library's pull zone. */
  view(access: Pick<LibraryAccess, 'playbackOrigin'>, video: VideoDoc): VideoT {
    const thumbnailUrl = video.thumbnailFileName && access.playbackOrigin ? `${access.playbackOrigin}/${video.guid}/${video.thumbnailFileName}` : null;
    // Only the model: a union that holds it (the play data) checks it against the model's shape.
    const { thumbnailTime: _internal, ...model } = video;
    return { ...model, thumbnailUrl };
  }

  private announce(event: VideoStatusEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own (the webhook sender queues and retries): the write stands.
      }
    }
  }
}

function newVideo(access: LibraryAccess, guid: string, title: string, collectionId: string, thumbnailTime: number | null, now: string): VideoDoc {
  return {
    videoLibraryId: access.libraryId,
    guid,
    title,
    dateUploaded: now,
    views: 0,
    isPublic: false,
    length: 0,
    status: VideoStatus.Created,
    framerate: 0,
    rotation: null,
    width: 0,
    height: 0,
    availableResolutions: null,
    outputCodecs: access.library.OutputCodecs || 'x264',
    thumbnailCount: 0,
    encodeProgress: 0,
    storageSize: 0,
    captions: [],
    hasMP4Fallback: false,
    collectionId,
    thumbnailFileName: 'thumbnail.jpg',
    thumbnailUrl: null,
    thumbnailBlurhash: null,
    averageWatchTime: 0,
    totalWatchTime: 0,
    category: 'unknown',
    chapters: [],
    moments: [],
    metaTags: [],
    transcodingMessages: [],
    jitEncodingEnabled: access.library.JitEncodingEnabled ?? false,
    smartGenerateStatus: null,
    smartGenerateFeaturesStatus: null,
    hasOriginal: false,
    originalHash: null,
    hasHighQualityPreview: false,
    thumbnailTime,
  };
}
