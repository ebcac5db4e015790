/** The files table (migrations sqlite 0004, postgres 0005): a storage zone's files and directories, as both dialects read them. */
import type { FileRecord } from '../types.js';
import { dumpedTable } from './dumped-table.js';

export interface FileRow {
  zone_id: string;
  path: string;
  parent: string;
  account_id: number;
  /** SQLite has no booleans: 1 or 0 there. */
  is_dir: boolean | number;
  size: number;
  sha256: string | null;
  md5: string | null;
  content_type: string | null;
  guid: string;
  /** JSON array of BlobSegment. */
  blobs: string;
  /** JSON object of user metadata, or null. */
  meta: string | null;
  created_at: string;
  changed_at: string;
}

export const FILE_COLUMNS = [
  'zone_id',
  'path',
  'parent',
  'account_id',
  'is_dir',
  'size',
  'sha256',
  'md5',
  'content_type',
  'guid',
  'blobs',
  'meta',
  'created_at',
  'changed_at',
] as const;
/** `FILE_COLUMNS` as a select list. */
export const FILE_SELECT = FILE_COLUMNS.join(', ');

export const fileFromRow = (r: FileRow): FileRecord => ({
  zoneId: r.zone_id,
  accountId: r.account_id,
  path: r.path,
  parent: r.parent,
  isDirectory: r.is_dir === true || r.is_dir === 1,
  size: r.size,
  sha256: r.sha256,
  md5: r.md5,
  contentType: r.content_type,
  guid: r.guid,
  blobs: JSON.parse(r.blobs) as FileRecord['blobs'],
  metadata: r.meta === null ? null : (JSON.parse(r.meta) as Record<string, string>),
  createdAt: r.created_at,
  changedAt: r.changed_at,
});

/** A file's values in the order of `FILE_COLUMNS`; `is_dir` as 1 or 0, which PostgreSQL reads as a boolean too. */
export const fileRowValues = (f: FileRecord) => [
  f.zoneId,
  f.path,
  f.parent,
  f.accountId,
  f.isDirectory ? 1 : 0,
  f.size,
  f.sha256,
  f.md5,
  f.contentType,
  f.guid,
  JSON.stringify(f.blobs),
  f.metadata === null ? null : JSON.stringify(f.metadata),
  f.createdAt,
  f.changedAt,
];

/** `a/b/c.txt` → `a/b/`; `a/b/` → `a/`; `a/` → ``. */
export function parentOf(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const cut = trimmed.lastIndexOf('/');
  return cut < 0 ? '' : trimmed.slice(0, cut + 1);
}

export const filesDumped = dumpedTable('file', 'files', ['zone_id', 'path'], FILE_COLUMNS, fileFromRow, fileRowValues);
