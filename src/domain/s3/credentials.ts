/**
 * The secrets S3 requests are signed with. Signature Version 4 proves knowledge of a secret by an
 * HMAC over the request, so unlike the file API (which compares a presented password's hash) the
 * plane needs the zone's passwords themselves: it takes them from the zones kept by name (see
 * files/zones-by-name.ts), which forgets a zone the moment it is written.
 */
import type { BucketSettings } from './types.js';
import type { ZoneAccess } from '../files/types.js';
import type { ZonesByName } from '../files/zones-by-name.js';

export interface S3ZoneSecrets {
  zone: Omit<ZoneAccess, 'canWrite'>;
  /** Grants reads and writes. */
  password: string | null;
  /** Grants reads only. */
  readOnlyPassword: string | null;
  /** When the zone was last changed: the bucket's creation date as ListBuckets tells it. */
  modifiedAt: string;
  settings: Readonly<BucketSettings>;
}

export class S3Credentials {
  constructor(private readonly zones: ZonesByName) {}

  /** The zone an access key id names (zone names are case-insensitive), whatever its type; undefined when there is none. */
  async of(accessKeyId: string): Promise<S3ZoneSecrets | undefined> {
    return this.zones.get(accessKeyId);
  }
}
