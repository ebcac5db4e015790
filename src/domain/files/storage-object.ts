/**
 * The file API's `StorageObject`: how a file or directory is described in listings and by
 * DESCRIBE, with every property of the reference's model.
 */
import type { FileRecord } from '../../store/types.js';
import { nameOf } from './paths.js';
import type { ZoneAccess } from './types.js';

export interface StorageObject {
  Guid: string;
  StorageZoneName: string;
  /** The directory holding the object, from the zone name: `/my-zone/images/`. */
  Path: string;
  ObjectName: string;
  Length: number;
  LastChanged: string;
  ServerId: number;
  ArrayNumber: number;
  IsDirectory: boolean;
  UserId: string;
  ContentType: string;
  DateCreated: string;
  StorageZoneId: number;
  /** Uppercase SHA-256 of the bytes; null for a directory. */
  Checksum: string | null;
  /** The zone's replication regions, comma-separated (`NY,SG`); empty when it has none. */
  ReplicatedZones: string;
}

/** The number of the (single) storage server edgeplane stands for. */
const SERVER_ID = 1;

/** The platform writes its storage timestamps as UTC without an offset, to the millisecond. */
export const platformTime = (iso: string) => iso.replace(/Z$/, '');

export function storageObject(zone: Omit<ZoneAccess, 'canWrite'>, file: FileRecord): StorageObject {
  return {
    Guid: file.guid,
    StorageZoneName: zone.zoneName,
    Path: `/${zone.zoneName}/${file.parent}`,
    ObjectName: nameOf(file.path),
    Length: file.size,
    LastChanged: platformTime(file.changedAt),
    ServerId: SERVER_ID,
    ArrayNumber: 0,
    IsDirectory: file.isDirectory,
    UserId: zone.userId,
    ContentType: file.contentType ?? '',
    DateCreated: platformTime(file.createdAt),
    StorageZoneId: Number(zone.zoneId),
    Checksum: file.sha256 === null ? null : file.sha256.toUpperCase(),
    ReplicatedZones: zone.replicationRegions.join(','),
  };
}
