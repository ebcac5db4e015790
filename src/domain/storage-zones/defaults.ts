/**
 * A freshly created storage zone, its host names, and what remains of it once deleted. `PullZones`
 * is not stored: it is computed on read from the pull zones linked to the zone. Pure: no I/O, no
 * framework.
 */
import type { StorageZoneT } from '../../schemas/storage-zone.js';

/** The region whose file API host carries no region prefix. */
export const PRIMARY_STORAGE_REGION = 'DE';

/**
 * Host name of the file API / FTP server of a zone in `region`: the storage domain itself for the
 * primary region, `<region>.<domain>` (lower case) for the others, e.g. `ny.storage.example.net`.
 * `storageDomain` comes from configuration.
 */
export function storageHostname(region: string, storageDomain: string): string {
  return region.toUpperCase() === PRIMARY_STORAGE_REGION ? storageDomain : `${region.toLowerCase()}.${storageDomain}`;
}

export interface NewStorageZoneInit {
  id: number;
  userId: string;
  name: string;
  region: string;
  replicationRegions: string[];
  zoneTier: 0 | 1;
  storageZoneType: 0 | 1;
  password: string;
  readOnlyPassword: string;
  storageHostname: string;
  now: Date;
  /**
   * Host name of the S3-compatible endpoint. Default: `s3.<storageHostname>` when the zone supports
   * the protocol (`storageZoneType` 1), null otherwise.
   */
  s3Hostname?: string | null;
}

export function newStorageZone(init: NewStorageZoneInit): Omit<StorageZoneT, 'PullZones'> {
  const s3 = init.s3Hostname !== undefined ? init.s3Hostname : init.storageZoneType === 1 ? `s3.${init.storageHostname}` : null;
  return {
    Id: init.id,
    UserId: init.userId,
    Name: init.name,
    Password: init.password,
    DateModified: init.now.toISOString(),
    Deleted: false,
    StorageUsed: 0,
    FilesStored: 0,
    Region: init.region,
    ReplicationRegions: [...init.replicationRegions],
    ReadOnlyPassword: init.readOnlyPassword,
    Rewrite404To200: false,
    Custom404FilePath: null,
    StorageHostname: init.storageHostname,
    S3Hostname: s3,
    ZoneTier: init.zoneTier,
    ReplicationChangeInProgress: false,
    PriceOverride: 0,
    Discount: 0,
    StorageZoneType: init.storageZoneType,
  };
}

/**
 * What a deleted zone keeps: its identity and history, flagged `Deleted`. Its credentials are
 * dropped, since nothing may authenticate against a zone that no longer exists.
 */
export function tombstoneOf<Z extends Omit<StorageZoneT, 'PullZones'>>(zone: Z, now: Date): Z {
  return { ...zone, Deleted: true, DateModified: now.toISOString(), Password: null, ReadOnlyPassword: null, ReplicationChangeInProgress: false };
}
