/** The documents the files' domain hands its planes. */

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
