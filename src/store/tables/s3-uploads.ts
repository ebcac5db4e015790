/** Rows of S3 multipart uploads in progress and of their parts (migrations sqlite 0009, postgres 0010): the same in both dialects. */
import type { S3Upload, S3UploadPart } from '../types.js';
import type { DumpedTable } from './dumped-table.js';

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

export const s3UploadsDumped: DumpedTable<'s3Upload', UploadRow> = {
  type: 's3Upload',
  table: 's3_uploads',
  order: ['upload_id'],
  columns: UPLOAD_COLUMNS,
  record: (r) => ({ type: 's3Upload', ...uploadFromRow(r) }),
  values: uploadRowValues,
};

export const s3UploadPartsDumped: DumpedTable<'s3UploadPart', PartRow> = {
  type: 's3UploadPart',
  table: 's3_upload_parts',
  order: ['upload_id', 'part_number'],
  columns: PART_COLUMNS,
  record: (r) => ({ type: 's3UploadPart', ...partFromRow(r) }),
  values: partRowValues,
};
