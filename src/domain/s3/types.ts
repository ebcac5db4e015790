/**
 * The S3 documents of a bucket (the zone that is the bucket), read by the domain and the S3 plane
 * alike: its configuration sub-resources as stored in the storage zone's `S3Settings`, and the
 * tags objects and buckets carry.
 */
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
