/** Rows of S3 multipart uploads in progress and of their parts (migrations sqlite 0009, postgres 0010): the same in both dialects. */
import type { S3Upload, S3UploadPart } from '../types.js';
import { dumpedTable } from './dumped-table.js';
import { insertSql, type Param } from './sql.js';

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

export const UPLOAD_COLUMNS = ['upload_id', 'zone_id', 'account_id', 'key', 'content_type', 'meta', 'created_at'] as const;

/** An upload's values in the order of `UPLOAD_COLUMNS`. */
export const uploadRowValues = (u: S3Upload) => [
  u.uploadId,
  u.zoneId,
  u.accountId,
  u.key,
  u.contentType,
  u.metadata === null ? null : JSON.stringify(u.metadata),
  u.createdAt,
];
export const PART_COLUMNS = ['upload_id', 'part_number', 'blob_key', 'size', 'md5', 'sha256', 'uploaded_at'] as const;

/** A part's values in the order of `PART_COLUMNS`. */
export const partRowValues = (p: S3UploadPart) => [p.uploadId, p.partNumber, p.blobKey, p.size, p.md5, p.sha256, p.uploadedAt];

/** The INSERT of an upload row. */
export const insertUpload = (param: Param) => insertSql('s3_uploads', UPLOAD_COLUMNS, param);
/** Adds a part, or replaces the one with its number. */
export const upsertPart = (param: Param) =>
  `${insertSql('s3_upload_parts', PART_COLUMNS, param)} ON CONFLICT (upload_id, part_number) DO UPDATE SET blob_key = excluded.blob_key, size = excluded.size,
   md5 = excluded.md5, sha256 = excluded.sha256, uploaded_at = excluded.uploaded_at`;

export const s3UploadsDumped = dumpedTable('s3Upload', 's3_uploads', ['upload_id'], UPLOAD_COLUMNS, uploadFromRow, uploadRowValues);

export const s3UploadPartsDumped = dumpedTable('s3UploadPart', 's3_upload_parts', ['upload_id', 'part_number'], PART_COLUMNS, partFromRow, partRowValues);
