/**
 * Where storage zones can keep their files (spec 2.6: main regions DE, NY, LA, SG; replicas also
 * SYD), each priced and named after the edge region of the same code.
 */
import { STORAGE_REPLICATION_REGIONS } from '../../schemas/storage-zone.js';
import { storageHostname } from '../storage-zones/defaults.js';
import { regionByCode } from './regions.js';

export interface StorageRegion {
  code: string;
  name: string;
  /** The file API's host for zones of this region. */
  hostname: string;
}

export function storageRegions(storageDomain: string): StorageRegion[] {
  return STORAGE_REPLICATION_REGIONS.map((code) => ({
    code,
    name: regionByCode(code)?.name ?? code,
    hostname: storageHostname(code, storageDomain),
  }));
}
