/** Rows of S3 multipart uploads in progress and of their parts: the same in both dialects. */
import type { S3Upload, S3UploadPart } from '../types.js';

export interface UploadRow {
  upload_id: string;
  zone_id: string;
  account_id: number;
  key: string;
  content_type: string | null;
  meta: string | null;
  created_at: string;
}

export interface PartRow {
  upload_id: string;
  part_number: number;
  blob_key: string;
  size: number;
  md5: string;
  sha256: string;
  uploaded_at: string;
}

export const uploadFromRow = (r: UploadRow): S3Upload => ({
  uploadId: r.upload_id,
  zoneId: r.zone_id,
  accountId: r.account_id,
  key: r.key,
  contentType: r.content_type,
  metadata: r.meta === null ? null : (JSON.parse(r.meta) as Record<string, string>),
  createdAt: r.created_at,
});

export const partFromRow = (r: PartRow): S3UploadPart => ({
  uploadId: r.upload_id,
  partNumber: r.part_number,
  blobKey: r.blob_key,
  size: r.size,
  md5: r.md5,
  sha256: r.sha256,
  uploadedAt: r.uploaded_at,
});

/** An upload's values in the order of `insertUpload`'s columns. */
export const uploadRowValues = (u: S3Upload) => [
  u.uploadId,
  u.zoneId,
  u.accountId,
  u.key,
  u.contentType,
  u.metadata === null ? null : JSON.stringify(u.metadata),
  u.createdAt,
];
/** A part's values in the order of `insertPart`'s columns. */
export const partRowValues = (p: S3UploadPart) => [p.uploadId, p.partNumber, p.blobKey, p.size, p.md5, p.sha256, p.uploadedAt];

const insert = (table: string, columns: string[], param: (index: number) => string) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => param(i + 1)).join(', ')})`;

/** The INSERT of an upload row; `param(i)` writes the i-th placeholder. */
export const insertUpload = (param: (index: number) => string) =>
  insert('s3_uploads', ['upload_id', 'zone_id', 'account_id', 'key', 'content_type', 'meta', 'created_at'], param);
/** The INSERT of a part row; `param(i)` writes the i-th placeholder. */
export const insertPart = (param: (index: number) => string) =>
  insert('s3_upload_parts', ['upload_id', 'part_number', 'blob_key', 'size', 'md5', 'sha256', 'uploaded_at'], param);
