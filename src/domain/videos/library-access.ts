/**
 * Who may do what in a video library: the video API presents the library's `ApiKey` (everything)
 * or `ReadOnlyApiKey` (reads) in `AccessKey`, and every path names the library. So a request costs
 * one look-up by id, kept in memory with the SHA-256 of both keys (compared in constant time) and
 * the library's storage zone and pull zone; the store's change feed drops an entry the moment its
 * library or its pull zone is written (a key reset, a setting, a deletion), here or on another
 * instance.
 */
import type { VideoLibraryT } from '../../schemas/video-library.js';
import { sameSecret, secretDigest } from '../../security/secret-digest.js';
import type { Store } from '../../store/types.js';
import { BoundedMap } from '../bounded-map.js';
import type { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import { zoneOf } from '../files/zones-by-name.js';
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { StoredStorageZone } from '../storage-zones/service.js';
import { playbackOrigin } from './playback-origin.js';
import type { LibraryAccess } from './types.js';

interface KnownLibrary {
  access: Omit<LibraryAccess, 'canWrite'>;
  keyDigest: Buffer | null;
  readOnlyDigest: Buffer | null;
}

const MAX_LIBRARIES = 10_000;

export class LibraryKeys {
  private readonly known = new BoundedMap<number, KnownLibrary>(MAX_LIBRARIES);
  /** The library of each remembered pull zone, so that a write to the zone (its token key) drops the library. */
  private readonly libraryOfPullZone = new BoundedMap<number, number>(MAX_LIBRARIES);

  /** `playbackUrl`: EDGEPLANE_PLAYBACK_URL, the origin of playback addresses (`https://{host}`). */
  constructor(
    private readonly store: Store,
    private readonly libraries: DocumentRepo<VideoLibraryT>,
    private readonly storageZones: DocumentRepo<StoredStorageZone>,
    private readonly pullZones: DocumentRepo<PullZoneT>,
    private readonly playbackUrl: string,
  ) {
    store.changes.subscribe((change) => {
      if (change.type === 'all') this.known.clear();
      else if (change.type === 'doc' && change.kind === 'videoLibrary') this.known.delete(Number(change.id));
      else if (change.type === 'doc' && change.kind === 'pullZone') {
        const libraryId = this.libraryOfPullZone.get(Number(change.id));
        if (libraryId !== undefined) this.known.delete(libraryId);
      }
    });
  }

  /**
   * The access `presented` grants in library `libraryId`. A missing key, a wrong one and an
   * unknown library are the same 401 (no one learns which libraries exist); the read-only key
   * asking to write is 403.
   */
  async authorize(libraryId: number, presented: string | undefined, need: 'read' | 'write'): Promise<LibraryAccess> {
    if (presented === undefined || presented === '') throw errors.unauthorized();
    const known = await this.library(libraryId);
    const key = secretDigest(presented);
    if (known && sameSecret(key, known.keyDigest)) return { ...known.access, canWrite: true };
    if (!known || !sameSecret(key, known.readOnlyDigest)) throw errors.unauthorized('The AccessKey is not a key of this video library.');
    if (need === 'write') throw errors.forbidden('The read-only API key of the library cannot change anything.', 'video.read_only_key');
    return { ...known.access, canWrite: false };
  }

  /** The library with its storage zone, whatever its account: for background jobs, which have no key. */
  async find(libraryId: number): Promise<Omit<LibraryAccess, 'canWrite'> | undefined> {
    return (await this.library(libraryId))?.access;
  }

  private async library(libraryId: number): Promise<KnownLibrary | undefined> {
    if (!Number.isSafeInteger(libraryId) || libraryId <= 0) return undefined;
    const cached = this.known.get(libraryId);
    if (cached) return cached;
    const generation = this.store.changes.generation();
    const found = await this.libraries.findAnyAccount(this.store, libraryId);
    if (!found) return undefined;
    const library = found.doc;
    const zone = await this.storageZones.find(this.store, found.accountId, library.StorageZoneId);
    if (!zone || zone.doc.Deleted) return undefined;
    const pullZone = await this.pullZones.find(this.store, found.accountId, library.PullZoneId);
    const hostnames = pullZone?.doc.Hostnames ?? [];
    const playbackHost = (hostnames.find((h) => h.IsSystemHostname) ?? hostnames[0])?.Value ?? '';
    const entry: KnownLibrary = {
      access: {
        libraryId,
        accountId: found.accountId,
        library,
        zone: { ...zoneOf(zone.id, found.accountId, zone.doc), canWrite: true },
        playbackHost,
        playbackOrigin: playbackOrigin(this.playbackUrl, playbackHost),
        delivery: {
          key: pullZone?.doc.ZoneSecurityKey ?? '',
          required: pullZone?.doc.ZoneSecurityEnabled ?? false,
          includeClientIp: pullZone?.doc.ZoneSecurityIncludeHashRemoteIP ?? false,
        },
      },
      keyDigest: library.ApiKey ? secretDigest(library.ApiKey) : null,
      readOnlyDigest: library.ReadOnlyApiKey ? secretDigest(library.ReadOnlyApiKey) : null,
    };
    // Remembered only when no write raced the read, so a reset key can never stay valid here.
    if (this.store.changes.generation() === generation) {
      this.known.set(libraryId, entry);
      this.libraryOfPullZone.set(library.PullZoneId, libraryId);
    }
    return entry;
  }
}
