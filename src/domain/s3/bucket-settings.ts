/**
 * What S3 keeps in a bucket's configuration sub-resources (`?tagging`, `?cors`, `?policy` …), for
 * the zone that is the bucket. They live in the storage zone's own document (a field the
 * management API neither takes nor shows), so they go where the zone goes: the backup dump, the
 * change feed that tells every instance the zone changed (the zones kept by name drop it, and the
 * next request sees the new settings), and the deletion of the zone.
 */
import type { Store } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import type { StoredStorageZone } from '../storage-zones/service.js';

export interface Tag {
  key: string;
  value: string;
}

export interface CorsRule {
  id?: string;
  allowedMethods: string[];
  allowedOrigins: string[];
  allowedHeaders: string[];
  exposeHeaders: string[];
  maxAgeSeconds?: number;
}

export interface PublicAccessBlock {
  blockPublicAcls: boolean;
  ignorePublicAcls: boolean;
  blockPublicPolicy: boolean;
  restrictPublicBuckets: boolean;
}

/** Which objects a lifecycle rule applies to; every condition given must hold. */
export interface LifecycleFilter {
  prefix: string;
  tags: Tag[];
  sizeGreaterThan?: number;
  sizeLessThan?: number;
  /**
   * How `<Filter>` was written, to answer it back the same way: `empty` for a filter with no
   * condition at all, `and` for conditions inside `<And>`; absent for its one condition alone.
   */
  form?: 'empty' | 'and';
}

export interface LifecycleRule {
  id?: string;
  enabled: boolean;
  filter: LifecycleFilter;
  /** Whether the rule was given with `<Filter>` (current form) or the legacy top-level `<Prefix>`: answered back the same way. */
  legacyPrefix: boolean;
  expiration?: { days?: number; date?: string; expiredObjectDeleteMarker?: boolean };
  abortIncompleteUploadDays?: number;
  /** Kept and answered back; it never removes anything, as versioning is never enabled here (no noncurrent versions). */
  noncurrentExpiration?: { days: number; newerVersions?: number };
}

export interface BucketSettings {
  tags?: Tag[];
  cors?: CorsRule[];
  /** The policy document as the client sent it (S3 answers it back unchanged). */
  policy?: string;
  publicAccessBlock?: PublicAccessBlock;
  lifecycle?: LifecycleRule[];
  /** Versioning can be suspended (every object keeps its one `null` version), never enabled here. */
  versioning?: 'Suspended';
}

export const NO_SETTINGS: Readonly<BucketSettings> = Object.freeze({});

export class BucketSettingsService {
  constructor(
    private readonly store: Store,
    private readonly zones: DocumentRepo<StoredStorageZone>,
  ) {}

  /** Sets one configuration of the zone's bucket, or removes it (`undefined`). */
  async set<K extends keyof BucketSettings>(zone: { zoneId: string; accountId: number }, name: K, value: BucketSettings[K] | undefined): Promise<void> {
    await this.store.transaction(async (tx) => {
      const current = await this.zones.find(tx, zone.accountId, zone.zoneId);
      if (!current || current.doc.Deleted) throw errors.notFound('storage zone');
      const settings: BucketSettings = { ...current.doc.S3Settings };
      if (value === undefined) delete settings[name];
      else settings[name] = value;
      const next: StoredStorageZone = { ...current.doc };
      if (Object.keys(settings).length === 0) delete next.S3Settings;
      else next.S3Settings = settings;
      await this.zones.update(tx, zone.accountId, current, next);
    });
  }

  /** Every zone with a lifecycle configuration, for the sweep that applies them. */
  async withLifecycle(offset: number, limit: number): Promise<{ zoneId: string; accountId: number; rules: LifecycleRule[] }[]> {
    const docs = await this.zones.scan(this.store, offset, limit);
    return docs
      .filter((d) => d.doc && !d.doc.Deleted && (d.doc.S3Settings?.lifecycle?.length ?? 0) > 0)
      .map((d) => ({ zoneId: d.id, accountId: d.accountId, rules: d.doc.S3Settings!.lifecycle! }));
  }
}
