/**
 * The S3 plane's documents, read by every file of this folder: who is asking (Authenticated), one
 * request as an operation sees it (S3Call), and the shape of a row of the operation table
 * (operations.ts) that routing and authorisation both read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZoneAccess } from '../../domain/files/types.js';
import type { BucketSettings } from '../../domain/s3/types.js';
import type { Services } from '../../domain/services.js';
import type { PayloadMode } from './sigv4.js';

/** The domain services the operations call. */
export interface S3Deps {
  files: Services['files'];
  multipart: Services['multipartUploads'];
  usage: Services['usage'];
  /** Where the bucket's configurations are written (they are read from the request's authentication). */
  buckets: Services['s3Buckets'];
  logError: (error: unknown) => void;
}

/** Who is asking, and what the zone they ask of was like when the request arrived. */
export interface Authenticated {
  zone: ZoneAccess;
  /** When the zone was last changed (ListBuckets' creation date). */
  modifiedAt: string;
  /** The bucket's configurations as they were when the request arrived. */
  settings: Readonly<BucketSettings>;
  payload: PayloadMode;
  /** Signed in the query (a presigned URL) rather than the Authorization header. */
  presigned: boolean;
  /** Signed with the zone's key; false for an anonymous request a bucket policy let in. */
  signed: boolean;
  /** For aws-chunked bodies whose chunks are signed. */
  chunkSigning?: { key: Buffer; amzDate: string; scope: string; seed: string };
}

/** An IAM action as a bucket policy names it. */
export type Permission = `s3:${string}`;

/** Checks one action on one key (or the bucket) for a request; throws AccessDenied when refused. */
export type Authorize = (action: Permission, key?: string) => void;

/** One S3 request as the operations see it. */
export interface S3Call {
  req: IncomingMessage;
  res: ServerResponse;
  deps: S3Deps;
  auth: Authenticated;
  /** The zone that is the bucket. */
  zone: ZoneAccess;
  /** Decoded; undefined for bucket operations. */
  key: string | undefined;
  query: Map<string, string>;
  requestId: string;
  /** Checks a further action the operation takes (each key of a DeleteObjects, a copy's source) against the bucket policy. */
  authorize: Authorize;
}

/** What a request is addressed to: the service (no bucket), a bucket, or an object (a bucket and a key). */
export type Target = 'service' | 'bucket' | 'object';

export type Method = 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';

/** What picks an operation among those of the same method on the same target and sub-resource; everything given must hold. */
export interface Selector {
  /** A query parameter present (any of them, when several): `uploadId`, `delete` … */
  query?: string | readonly string[];
  /** The value the (one) query parameter has: `list-type=2`. */
  value?: string;
  /** A header present: `x-amz-copy-source`. */
  header?: string;
}

/** A row of the operation table: a request this method sends to this target (and sub-resource) is this operation. */
export interface S3Operation {
  /** S3's name for it: GetObject, ListObjectsV2, PutBucketTagging … */
  name: string;
  target: Target;
  method: Method;
  /**
   * The configuration sub-resource it acts on (`tagging`, `cors`, `policy` …): named in the query,
   * it takes the request whatever else the query says, and a method it has no operation for is refused.
   */
  configuration?: string;
  when?: Selector;
  /** The IAM action a bucket policy allows or denies it by. */
  permission: Permission;
  run: (call: S3Call) => Promise<void> | void;
}

/**
 * A request parsed once into what routing runs and authorisation checks: a row of the table, or
 * the refusal of a method no row has there (see operations.ts).
 */
export type Operation = Pick<S3Operation, 'name' | 'permission' | 'configuration' | 'run'>;
