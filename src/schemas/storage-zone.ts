/**
 * Storage zones (spec 2.6; operation 4.7, plus update taken from the platform's public reference).
 * The region lists below are the single source for every schema and rule that names a region.
 */
import { Type, type Static } from 'typebox';
import { DateTime, Decimal, Int32, Int64, IntEnum, Nullable } from './common.js';
import { PullZone } from './pull-zone.js';

/** Regions a storage zone may live in (spec part 8). */
export const STORAGE_MAIN_REGIONS = ['DE', 'NY', 'LA', 'SG'] as const;
/** Regions a storage zone may replicate to (spec part 8). */
export const STORAGE_REPLICATION_REGIONS = ['DE', 'NY', 'LA', 'SG', 'SYD'] as const;

export type StorageMainRegion = (typeof STORAGE_MAIN_REGIONS)[number];
export type StorageReplicationRegion = (typeof STORAGE_REPLICATION_REGIONS)[number];

/** Index = wire value. Meanings are not part of the specification; these are the platform's names. */
export const STORAGE_ZONE_TIERS = ['Standard', 'Edge'] as const;
export const STORAGE_ZONE_TYPES = ['NotSupported', 'Supported'] as const;

const ZoneTierEnum = (description: string) => IntEnum([0, 1] as const, { description });
const ZoneTypeEnum = (description: string) => IntEnum([0, 1] as const, { description });

const ZONE_TIER_DOC = 'Storage tier holding the data: 0 = Standard, 1 = Edge.';
const ZONE_TYPE_DOC = 'Support for the S3-compatible protocol: 0 = not supported, 1 = supported.';

const MainRegion = (description: string) => Type.Unsafe<StorageMainRegion>({ type: 'string', minLength: 1, enum: [...STORAGE_MAIN_REGIONS], description });

const ReplicationRegionArray = (description: string) =>
  Nullable(Type.Array(Type.Unsafe<StorageReplicationRegion>({ type: 'string', enum: [...STORAGE_REPLICATION_REGIONS] }), { uniqueItems: true }), {
    description,
  });

export const StorageZone = Type.Object(
  {
    Id: Int64({ description: 'Identifier of the storage zone.' }),
    UserId: Nullable(Type.String(), { description: 'Identifier of the owning account.' }),
    Name: Nullable(Type.String(), { description: 'Name of the zone, also its user name for file access.' }),
    Password: Nullable(Type.String(), { description: 'Read-write key of the file API, also the FTP password. A credential.' }),
    DateModified: DateTime({ description: 'When the zone was last changed.' }),
    Deleted: Type.Boolean({ description: 'True once the zone has been deleted.' }),
    StorageUsed: Int64({ description: 'Bytes stored in the zone.' }),
    FilesStored: Int64({ description: 'Number of files stored in the zone.' }),
    Region: Nullable(Type.String(), { description: 'Main region code: DE, NY, LA or SG.' }),
    ReplicationRegions: Nullable(Type.Array(Type.String()), { description: 'Region codes the zone replicates to.' }),
    PullZones: Nullable(Type.Array(PullZone), { description: 'Pull zones that use this storage zone as their origin.' }),
    ReadOnlyPassword: Nullable(Type.String(), { description: 'Read-only key of the file API, also the read-only FTP password. A credential.' }),
    Rewrite404To200: Type.Boolean({ description: 'Answer missing files with status 200 instead of 404.' }),
    Custom404FilePath: Nullable(Type.String(), { description: 'Path of the file returned when a requested file is missing.' }),
    StorageHostname: Nullable(Type.String(), { description: 'Host name of the file API and FTP server for this zone.' }),
    S3Hostname: Nullable(Type.String(), { description: 'Host name of the S3-compatible endpoint; null when the zone does not support it.' }),
    ZoneTier: ZoneTierEnum(ZONE_TIER_DOC),
    ReplicationChangeInProgress: Type.Boolean({ description: 'True while a newly added replication region is being filled.' }),
    PriceOverride: Decimal({ description: 'Zone-specific storage price per TB per month; 0 when the list price applies.' }),
    Discount: Int32({ description: 'Zone-specific pricing discount.' }),
    StorageZoneType: ZoneTypeEnum(ZONE_TYPE_DOC),
  },
  { description: 'A storage zone.' },
);

export const StorageZoneAddRequest = Type.Object(
  {
    Name: Type.String({ minLength: 1, description: 'Name of the new zone.' }),
    Region: MainRegion('Main region code: DE, NY, LA or SG.'),
    ReplicationRegions: Type.Optional(ReplicationRegionArray('Region codes to replicate to, from DE, NY, LA, SG, SYD; no duplicates.')),
    ZoneTier: Type.Optional(ZoneTierEnum(`${ZONE_TIER_DOC} Default 0.`)),
    StorageZoneType: Type.Optional(ZoneTypeEnum(`${ZONE_TYPE_DOC} Default 0.`)),
  },
  { additionalProperties: false, description: 'A new storage zone.' },
);

export const StorageZoneUpdateRequest = Type.Object(
  {
    ReplicationZones: Type.Optional(ReplicationRegionArray('Region codes the zone replicates to, from DE, NY, LA, SG, SYD; no duplicates.')),
    OriginUrl: Type.Optional(Nullable(Type.String(), { description: 'Origin address the zone falls back to for missing files.' })),
    Custom404FilePath: Type.Optional(Nullable(Type.String(), { description: 'Path of the file returned when a requested file is missing.' })),
    Rewrite404To200: Type.Optional(Nullable(Type.Boolean(), { description: 'Answer missing files (URLs without extension) with status 200.' })),
  },
  { additionalProperties: false, description: 'Changes to a storage zone; omitted or null fields stay as they are.' },
);

export type StorageZoneT = Static<typeof StorageZone>;
export type StorageZoneAddRequestT = Static<typeof StorageZoneAddRequest>;
export type StorageZoneUpdateRequestT = Static<typeof StorageZoneUpdateRequest>;
