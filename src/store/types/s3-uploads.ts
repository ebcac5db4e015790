/** S3 multipart uploads in progress. */

/** An S3 multipart upload in progress (see domain/s3/multipart.ts). */
export interface S3Upload {
  uploadId: string;
  zoneId: string;
  accountId: number;
  key: string;
  contentType: string | null;
  /** `x-amz-meta-*` given when the upload was created, lowercase names. */
  metadata: Record<string, string> | null;
  createdAt: string;
}

/** A part acknowledged to the client: its bytes are a blob of the files backend. */
export interface S3UploadPart {
  uploadId: string;
  partNumber: number;
  blobKey: string;
  size: number;
  /** Lowercase hex, of the part's bytes. */
  md5: string;
  sha256: string;
  uploadedAt: string;
}

export interface S3Uploads {
  create(upload: S3Upload): Promise<void>;
  get(zoneId: string, uploadId: string): Promise<S3Upload | undefined>;
  /** A zone's uploads whose key starts with `prefix`, in (key, uploadId) order, after `after`. */
  list(zoneId: string, query: { prefix: string; after?: { key: string; uploadId: string } | undefined; limit: number }): Promise<S3Upload[]>;
  /** Records a part, replacing the one with its number; answers the one replaced, or undefined when the upload is gone. */
  putPart(part: S3UploadPart): Promise<{ replaced: S3UploadPart | undefined } | undefined>;
  /** An upload's parts numbered above `after`, in number order. */
  parts(uploadId: string, after: number, limit: number): Promise<S3UploadPart[]>;
  /** Removes an upload and its parts; answers the parts, or undefined when there was no such upload. */
  remove(uploadId: string): Promise<S3UploadPart[] | undefined>;
  /** Removes every upload of a zone (its blobs go with the zone's prefix). */
  removeZone(zoneId: string): Promise<void>;
  /** Whether an upload of the zone with this id has a part whose blob is `key` (the files sweeper asks: part blobs carry the id). */
  usesBlob(zoneId: string, uploadId: string, key: string): Promise<boolean>;
}
