/**
 * A pull zone's perma-cache (`PermaCacheStorageZoneId`): a second, permanent cache layer between
 * the edge and the origin, kept in a storage zone of the zone's account (layout.ts). On an edge
 * miss the file is looked for there first, and served from it without asking the origin
 * (`Perma-Cache: HIT`); otherwise the origin answers (`MISS`) and, when the edge cache keeps that
 * answer, it is written there after the answer went out (background-writes.ts), through the file
 * domain like any upload, so the storage zone's counters include it.
 *
 * `PermaCacheType` (the specification does not say what its values do): 0 Automatic, misses fill
 * the perma-cache; 1 Manual, it is only read, and holds what the account puts there itself.
 * Not used: for a zone (or an edge rule's OriginStorage) pulling from a storage zone already, and
 * for a request an edge rule's BypassPermaCache matches.
 *
 * What is written: a whole 200 answer to a GET that the edge cache keeps under its plain key (not
 * a `Vary` variant: the file's name must be known before the origin is asked), never an answer to
 * a request with credentials, nor one that set a cookie. Its type and the headers listed in
 * KEPT_HEADERS are kept with it; ETag and Last-Modified are the stored file's.
 */
import { Readable } from 'node:stream';
import type { Store } from '../../../store/types.js';
import type { DocumentRepo } from '../../documents.js';
import { AppError } from '../../errors.js';
import { STORED_HEADERS, SYSTEM_PREFIX } from '../../files/kept-headers.js';
import type { FileService } from '../../files/service.js';
import type { ZoneAccess } from '../../files/types.js';
import type { StoredStorageZone } from '../../storage-zones/service.js';
import { first } from '../cache/freshness.js';
import type { KeyedRequest } from '../cache/key.js';
import { type StorageAnswer, storedFileAnswer } from '../origin/storage-origin.js';
import type { RoutedZone } from '../routing/routed-zone.js';
import type { RuleEffects } from '../types.js';
import { BackgroundWrites, type WriteLimits } from './background-writes.js';
import { permaCachePath, zoneFolder } from './layout.js';
import { PermaCacheZones } from './zone-access.js';

/** The origin's headers a perma-cache file keeps and answers with (beside its type). */
const KEPT_HEADERS = [...STORED_HEADERS, 'vary'] as const;
/** A kept header longer than this is left out (the metadata stays small). */
const MAX_KEPT_HEADER_CHARS = 1024;

/** Two writes at once (the requests being served come first), 1,024 waiting, 64 MiB of bodies held. */
export const DEFAULT_WRITE_LIMITS: WriteLimits = { concurrency: 2, maxQueued: 1024, maxQueuedBytes: 64 * 1024 * 1024 };

/** Where one request's answer lives in a perma-cache. */
export interface PermaPlace {
  /** The storage zone, found live and of the pull zone's account. */
  zone: ZoneAccess;
  /** The file's path in the storage zone. */
  path: string;
  /** PermaCacheType Automatic: an origin answer is written here. */
  fills: boolean;
}

/** An origin answer the fetch step buffered, as the perma-cache judges it. */
export interface FetchedAnswer {
  status: number;
  /** As the origin sent them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Buffer;
  /** The edge cache keeps it under the request's plain key (placement.ts: stored, and no variant of it). */
  keptUnderPlainKey: boolean;
  /** The request carried credentials the key does not tell apart (key.ts). */
  credentialed: boolean;
}

export interface PermaCacheDeps {
  store: Store;
  files: FileService;
  storageZones: DocumentRepo<StoredStorageZone>;
  logError: (error: unknown) => void;
  limits?: WriteLimits | undefined;
}

export class PermaCache {
  private readonly zones: PermaCacheZones;
  private readonly writes: BackgroundWrites;

  constructor(private readonly deps: PermaCacheDeps) {
    this.zones = new PermaCacheZones(deps.store, deps.storageZones, deps.logError);
    this.writes = new BackgroundWrites(deps.limits ?? DEFAULT_WRITE_LIMITS, deps.logError);
  }

  /**
   * Where the answer to a miss would be (`path` is the one the key was made of); undefined when the
   * zone has no perma-cache for it, or its storage zone is gone (reported once) or cannot be read.
   */
  async placeOf(routed: RoutedZone, effects: RuleEffects, keyed: KeyedRequest, path: string): Promise<PermaPlace | undefined> {
    const zone = routed.zone;
    const storageZoneId = zone.PermaCacheStorageZoneId;
    if (!(storageZoneId > 0) || effects.bypassPermaCache || routed.origin.kind === 'storage' || (effects.originStorageZoneId ?? 0) > 0) return undefined;
    // What the key holds beyond the zone, its version and the path (key.ts); the whole key should its form change.
    const prefix = `${routed.id}:${zone.CacheVersion}|${path}`;
    const variation = keyed.key.startsWith(prefix) ? keyed.key.slice(prefix.length) : keyed.key;
    const filePath = permaCachePath(zoneFolder(zone), path, variation);
    if (filePath === undefined) return undefined;
    const access = await this.zones.access(routed.accountId, storageZoneId, routed.id).catch((error: unknown) => this.deps.logError(error));
    return access ? { zone: access, path: filePath, fills: zone.PermaCacheType === 0 } : undefined;
  }

  /** The kept answer, or undefined (none, or the store failing: the origin is asked instead). */
  async read(place: PermaPlace): Promise<StorageAnswer | undefined> {
    try {
      const file = await this.deps.files.find(place.zone, place.path);
      return file && !file.isDirectory ? await storedFileAnswer(this.deps.files, file) : undefined;
    } catch (error) {
      this.deps.logError(error);
      return undefined;
    }
  }

  /** Writes an origin answer to its place after the request, when it may be kept there (see above); never throws. */
  keep(place: PermaPlace, answer: FetchedAnswer): void {
    if (!place.fills || !keepable(answer)) return;
    this.writes.add(`${place.zone.zoneId}/${place.path}`, answer.body.length, () => this.write(place, answer));
  }

  /** Resolves once no write waits or runs. */
  idle(): Promise<void> {
    return this.writes.idle();
  }

  /** Takes no more writes and lets those running finish (the edge's listeners closing). */
  close(): Promise<void> {
    return this.writes.close();
  }

  private async write(place: PermaPlace, answer: FetchedAnswer): Promise<void> {
    const { zone, path } = place;
    // Another miss, or another instance, may have written it since this one looked.
    if (await this.deps.files.find(zone, path)) return;
    const contentType = first(answer.headers['content-type']);
    try {
      await this.deps.files.upload(zone, { path, isDirectory: false }, Readable.from([answer.body]), { contentType, metadata: keptMetadata(answer.headers) });
    } catch (error) {
      // The zone was deleted while the bytes were on their way: the next look-up reports it, once.
      if (error instanceof AppError && error.code === 'unauthorized') this.zones.forget(zone.accountId, Number(zone.zoneId));
      else throw error;
    }
  }
}

function keepable(answer: FetchedAnswer): boolean {
  return answer.status === 200 && answer.keptUnderPlainKey && !answer.credentialed && answer.headers['set-cookie'] === undefined;
}

function keptMetadata(headers: FetchedAnswer['headers']): Record<string, string> | null {
  const metadata: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = first(headers[name]);
    if (value !== undefined && value.length <= MAX_KEPT_HEADER_CHARS) metadata[`${SYSTEM_PREFIX}${name}`] = value;
  }
  return Object.keys(metadata).length > 0 ? metadata : null;
}
