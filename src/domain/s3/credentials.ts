/**
 * The secrets S3 requests are signed with. Signature Version 4 proves knowledge of a secret by an
 * HMAC over the request, so unlike the file API (which compares a presented password with a hash)
 * the plane needs the zone's passwords themselves: they are kept in memory by zone name, only for
 * zones that speak S3, and dropped the moment the store's change feed reports the zone written (a
 * password reset, a type change, a deletion), here or on another instance.
 */
import type { Store } from '../../store/types.js';
import { BoundedMap } from '../bounded-map.js';
import type { DocumentRepo } from '../documents.js';
import type { ZoneAccess } from '../files/zone-keys.js';
import type { StoredStorageZone } from '../storage-zones/service.js';

export interface S3ZoneSecrets {
  zone: Omit<ZoneAccess, 'canWrite'>;
  /** Grants reads and writes. */
  password: string | null;
  /** Grants reads only. */
  readOnlyPassword: string | null;
  /** When the zone was last changed: the bucket's creation date as ListBuckets tells it. */
  modifiedAt: string;
}

const MAX_ZONES = 10_000;

export class S3Credentials {
  private readonly byName = new BoundedMap<string, S3ZoneSecrets>(MAX_ZONES);
  private readonly nameById = new Map<string, string>();

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

  /** The zone an access key id names (zone names are case-insensitive), whatever its type; undefined when there is none. */
  async of(accessKeyId: string): Promise<S3ZoneSecrets | undefined> {
    const name = accessKeyId.toLowerCase();
    const cached = this.byName.get(name);
    if (cached !== undefined) return cached;
    const generation = this.store.changes.generation();
    const found = await this.zones.findByName(this.store, name);
    const doc = found?.doc;
    if (!found || !doc || doc.Deleted) return undefined;
    const entry: S3ZoneSecrets = {
      zone: {
        zoneId: found.id,
        accountId: found.accountId,
        zoneName: doc.Name ?? name,
        userId: doc.UserId ?? '',
        s3: doc.StorageZoneType === 1,
        region: doc.Region ?? '',
        replicationRegions: doc.ReplicationRegions ?? [],
      },
      password: doc.Password || null,
      readOnlyPassword: doc.ReadOnlyPassword || null,
      modifiedAt: doc.DateModified ?? new Date(0).toISOString(),
    };
    // Remembered only when no write raced the read, so a stale secret can never stay behind.
    if (this.store.changes.generation() === generation) {
      this.byName.set(name, entry);
      this.nameById.set(found.id, name);
    }
    return entry;
  }
}
