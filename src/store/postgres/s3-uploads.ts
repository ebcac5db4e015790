/** S3 multipart uploads in progress on PostgreSQL (migration 0010). */
import type { DumpRecord, S3Upload, S3UploadPart, S3Uploads } from '../types.js';
import { prefixEnd } from '../file-paths.js';
import type { Queryable } from './repositories.js';

interface UploadRow {
  upload_id: string;
  zone_id: string;
  account_id: number;
  key: string;
  content_type: string | null;
  meta: string | null;
  created_at: string;
}

interface PartRow {
  upload_id: string;
  part_number: number;
  blob_key: string;
  size: number;
  md5: string;
  sha256: string;
  uploaded_at: string;
}

const uploadFromRow = (r: UploadRow): S3Upload => ({
  uploadId: r.upload_id,
  zoneId: r.zone_id,
  accountId: r.account_id,
  key: r.key,
  contentType: r.content_type,
  metadata: r.meta === null ? null : (JSON.parse(r.meta) as Record<string, string>),
  createdAt: r.created_at,
});

const partFromRow = (r: PartRow): S3UploadPart => ({
  uploadId: r.upload_id,
  partNumber: r.part_number,
  blobKey: r.blob_key,
  size: r.size,
  md5: r.md5,
  sha256: r.sha256,
  uploadedAt: r.uploaded_at,
});

const INSERT_UPLOAD = 'INSERT INTO s3_uploads (upload_id, zone_id, account_id, key, content_type, meta, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)';
const INSERT_PART = 'INSERT INTO s3_upload_parts (upload_id, part_number, blob_key, size, md5, sha256, uploaded_at) VALUES ($1, $2, $3, $4, $5, $6, $7)';
const uploadValues = (u: S3Upload) => [
  u.uploadId,
  u.zoneId,
  u.accountId,
  u.key,
  u.contentType,
  u.metadata === null ? null : JSON.stringify(u.metadata),
  u.createdAt,
];
const partValues = (p: S3UploadPart) => [p.uploadId, p.partNumber, p.blobKey, p.size, p.md5, p.sha256, p.uploadedAt];

/** Every upload, then every part (uploads in progress are few: read at once). */
export async function* dumpPgS3Uploads(db: Queryable): AsyncGenerator<DumpRecord> {
  for (const r of (await db.query<UploadRow>('SELECT * FROM s3_uploads ORDER BY upload_id')).rows) yield { type: 's3Upload', ...uploadFromRow(r) };
  for (const r of (await db.query<PartRow>('SELECT * FROM s3_upload_parts ORDER BY upload_id, part_number')).rows)
    yield { type: 's3UploadPart', ...partFromRow(r) };
}

/** Replays a dump's upload or part record. */
export async function loadPgS3Record(db: Queryable, r: ({ type: 's3Upload' } & S3Upload) | ({ type: 's3UploadPart' } & S3UploadPart)): Promise<void> {
  if (r.type === 's3Upload') await db.query(INSERT_UPLOAD, uploadValues(r));
  else await db.query(INSERT_PART, partValues(r));
}

export class PgS3Uploads implements S3Uploads {
  constructor(private readonly db: Queryable) {}

  async create(upload: S3Upload): Promise<void> {
    await this.db.query(INSERT_UPLOAD, uploadValues(upload));
  }

  async get(zoneId: string, uploadId: string): Promise<S3Upload | undefined> {
    const { rows } = await this.db.query<UploadRow>('SELECT * FROM s3_uploads WHERE zone_id = $1 AND upload_id = $2', [zoneId, uploadId]);
    return rows[0] && uploadFromRow(rows[0]);
  }

  async list(zoneId: string, query: { prefix: string; after?: { key: string; uploadId: string } | undefined; limit: number }): Promise<S3Upload[]> {
    const after = query.after ?? { key: '', uploadId: '' };
    const { rows } = await this.db.query<UploadRow>(
      `SELECT * FROM s3_uploads WHERE zone_id = $1 AND key >= $2 AND key < $3 AND (key, upload_id) > ($4, $5)
       ORDER BY key, upload_id LIMIT $6`,
      [zoneId, query.prefix, prefixEnd(query.prefix), after.key, after.uploadId, query.limit],
    );
    return rows.map(uploadFromRow);
  }

  async putPart(part: S3UploadPart): Promise<{ replaced: S3UploadPart | undefined } | undefined> {
    // Holds the upload while the part is added: an abort or completion waits, and sees the part.
    const { rows: found } = await this.db.query('SELECT 1 FROM s3_uploads WHERE upload_id = $1 FOR KEY SHARE', [part.uploadId]);
    if (found.length === 0) return undefined;
    const { rows } = await this.db.query<PartRow>('SELECT * FROM s3_upload_parts WHERE upload_id = $1 AND part_number = $2 FOR UPDATE', [
      part.uploadId,
      part.partNumber,
    ]);
    await this.db.query(
      `${INSERT_PART} ON CONFLICT (upload_id, part_number) DO UPDATE SET blob_key = excluded.blob_key, size = excluded.size,
       md5 = excluded.md5, sha256 = excluded.sha256, uploaded_at = excluded.uploaded_at`,
      partValues(part),
    );
    return { replaced: rows[0] && partFromRow(rows[0]) };
  }

  async parts(uploadId: string, after: number, limit: number): Promise<S3UploadPart[]> {
    const { rows } = await this.db.query<PartRow>('SELECT * FROM s3_upload_parts WHERE upload_id = $1 AND part_number > $2 ORDER BY part_number LIMIT $3', [
      uploadId,
      after,
      limit,
    ]);
    return rows.map(partFromRow);
  }

  async remove(uploadId: string): Promise<S3UploadPart[] | undefined> {
    // Waits for parts being added to commit, so every part's blob is in the answer.
    const { rows: found } = await this.db.query('SELECT 1 FROM s3_uploads WHERE upload_id = $1 FOR UPDATE', [uploadId]);
    if (found.length === 0) return undefined;
    const { rows } = await this.db.query<PartRow>('SELECT * FROM s3_upload_parts WHERE upload_id = $1 ORDER BY part_number', [uploadId]);
    await this.db.query('DELETE FROM s3_uploads WHERE upload_id = $1', [uploadId]);
    return rows.map(partFromRow);
  }

  async removeZone(zoneId: string): Promise<void> {
    await this.db.query('DELETE FROM s3_uploads WHERE zone_id = $1', [zoneId]);
  }

  async exists(zoneId: string, uploadId: string): Promise<boolean> {
    return (await this.get(zoneId, uploadId)) !== undefined;
  }
}
