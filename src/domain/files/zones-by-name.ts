/**
 * Storage zones by name, as the planes that take a zone's passwords need them: the file API
 * compares a presented password (by its SHA-256, in constant time), the S3 API signs with the
 * password itself (Signature Version 4 proves knowledge of a secret by an HMAC over the request).
 * One cache for both, in memory by zone name, so a request costs no store read; the store's change
 * feed drops a zone's entry the moment it is written (a password reset, a type change, a
 * deletion), here or on another instance, so the old password fails on the very next request.
 */
import { secretDigest } from '../../security/secret-digest.js';
import type { Store } from '../../store/types.js';
import { BoundedMap } from '../bounded-map.js';
import type { DocumentRepo } from '../documents.js';
import { type BucketSettings, NO_SETTINGS } from '../s3/types.js';
import type { StoredStorageZone } from '../storage-zones/service.js';
import type { ZoneAccess } from './types.js';

export interface KnownZone {
  zone: Omit<ZoneAccess, 'canWrite'>;
  /** Grants reads and writes. */
  password: string | null;
  /** Grants reads only. */
  readOnlyPassword: string | null;
  /** SHA-256 of each password, compared with a presented one's. */
  passwordDigest: Buffer | null;
  readOnlyDigest: Buffer | null;
  /** When the zone was last changed. */
  modifiedAt: string;
  /** Its S3 bucket's configurations (CORS and the policy apply to every request). */
  settings: Readonly<BucketSettings>;
}

const MAX_ZONES = 10_000;

export class ZonesByName {
  private readonly byName = new BoundedMap<string, KnownZone>(MAX_ZONES);
  private readonly nameById = new BoundedMap<string, string>(MAX_ZONES);

  constructor(
    private readonly store: Store,
    private readonly zones: DocumentRepo<StoredStorageZone>,
  ) {
    store.changes.subscribe((change) => {
      if (change.type === 'all') {
        this.byName.clear();
        this.nameById.clear();
      } else if (change.type === 'doc' && change.kind === 'storageZone') {
        const name = this.nameById.get(change.id);
        if (name !== undefined) this.byName.delete(name);
        this.nameById.delete(change.id);
      }
    });
  }

  /** The zone named `name` (zone names are case-insensitive), whatever its type; undefined when there is none. */
  async get(name: string): Promise<KnownZone | undefined> {
    const key = name.toLowerCase();
    const cached = this.byName.get(key);
    if (cached !== undefined) return cached;
    const generation = this.store.changes.generation();
    const found = await this.zones.findByName(this.store, key);
    const doc = found?.doc;
    if (!found || !doc || doc.Deleted) return undefined;
    const entry: KnownZone = {
      zone: zoneOf(found.id, found.accountId, doc),
      password: doc.Password || null,
      readOnlyPassword: doc.ReadOnlyPassword || null,
      passwordDigest: doc.Password ? secretDigest(doc.Password) : null,
      readOnlyDigest: doc.ReadOnlyPassword ? secretDigest(doc.ReadOnlyPassword) : null,
      modifiedAt: doc.DateModified ?? new Date(0).toISOString(),
      settings: doc.S3Settings ?? NO_SETTINGS,
    };
    // Remembered only when no write raced the read, so a stale password can never stay behind.
    // Unknown names are not remembered either: a zone created a moment later must work at once.
    if (this.store.changes.generation() === generation) {
      this.byName.set(key, entry);
      this.nameById.set(found.id, key);
    }
    return entry;
  }
}

/** What the file domain needs to know of a storage zone to read and write its files. */
export function zoneOf(zoneId: string, accountId: number, doc: StoredStorageZone): Omit<ZoneAccess, 'canWrite'> {
  return {
    zoneId,
    accountId,
    zoneName: doc.Name ?? '',
    userId: doc.UserId ?? '',
    s3: doc.StorageZoneType === 1,
    region: doc.Region ?? '',
    replicationRegions: doc.ReplicationRegions ?? [],
  };
}
