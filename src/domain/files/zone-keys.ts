/**
 * Who may use a storage zone's files: the zone's password (read and write) or its read-only
 * password. Kept in memory by zone name, as hashes, so a request costs one hash and no store
 * read; the store's change feed drops a zone's entry the moment it is written (a password reset,
 * a deletion), here or on another instance, so the old password fails on the very next request.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Store } from '../../store/types.js';
import { BoundedMap } from '../bounded-map.js';
import type { DocumentRepo } from '../documents.js';
import type { StoredStorageZone } from '../storage-zones/service.js';

/** What a request may do in a zone once its key is known. */
export interface ZoneAccess {
  /** The zone's id as the store knows it (its numeric id as text). */
  zoneId: string;
  accountId: number;
  zoneName: string;
  canWrite: boolean;
  userId: string;
  /** `StorageZoneType` 1: the zone speaks S3 too. */
  s3: boolean;
  region: string;
  replicationRegions: string[];
}

interface ZoneEntry {
  zone: Omit<ZoneAccess, 'canWrite'>;
  password: Buffer | null;
  readOnlyPassword: Buffer | null;
}

const MAX_ZONES = 10_000;
const digest = (value: string) => createHash('sha256').update(value).digest();

export class ZoneKeys {
  private readonly byName = new BoundedMap<string, ZoneEntry | null>(MAX_ZONES);
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

  /** The access `presented` grants in the zone named `zoneName`; undefined for a wrong key or an unknown zone alike. */
  async access(zoneName: string, presented: string | undefined): Promise<ZoneAccess | undefined> {
    const entry = await this.entry(zoneName.toLowerCase());
    if (!entry || presented === undefined || presented === '') return undefined;
    const hash = digest(presented);
    // Both compared every time, so timing does not tell which password a key nearly matched.
    const full = entry.password !== null && timingSafeEqual(hash, entry.password);
    const readOnly = entry.readOnlyPassword !== null && timingSafeEqual(hash, entry.readOnlyPassword);
    if (!full && !readOnly) return undefined;
    return { ...entry.zone, canWrite: full };
  }

  /** The zone named `zoneName`, whatever the key (for the plane's own bookkeeping, never for access). */
  async zone(zoneName: string): Promise<Omit<ZoneAccess, 'canWrite'> | undefined> {
    return (await this.entry(zoneName.toLowerCase()))?.zone;
  }

  private async entry(name: string): Promise<ZoneEntry | null> {
    const cached = this.byName.get(name);
    if (cached !== undefined) return cached;
    const generation = this.store.changes.generation();
    const found = await this.zones.findByName(this.store, name);
    const doc = found?.doc;
    const entry: ZoneEntry | null =
      doc && !doc.Deleted
        ? {
            zone: {
              zoneId: found.id,
              accountId: found.accountId,
              zoneName: doc.Name ?? name,
              userId: doc.UserId ?? '',
              s3: doc.StorageZoneType === 1,
              region: doc.Region ?? '',
              replicationRegions: doc.ReplicationRegions ?? [],
            },
            password: doc.Password ? digest(doc.Password) : null,
            readOnlyPassword: doc.ReadOnlyPassword ? digest(doc.ReadOnlyPassword) : null,
          }
        : null;
    // Unknown names are not remembered: a zone created a moment later must work at once.
    if (entry && this.store.changes.generation() === generation) {
      this.byName.set(name, entry);
      this.nameById.set(entry.zone.zoneId, name);
    }
    return entry;
  }
}
