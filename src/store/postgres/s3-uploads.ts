/** S3 multipart uploads in progress on PostgreSQL (migration 0010). */
import { insertUpload, type PartRow, partFromRow, partRowValues, type UploadRow, uploadFromRow, uploadRowValues, upsertPart } from '../tables/s3-uploads.js';
import { postgresParam } from '../tables/sql.js';
import type { S3Upload, S3UploadPart, S3Uploads } from '../types.js';
import { prefixEnd } from '../file-paths.js';
import type { Queryable } from './queryable.js';

const INSERT_UPLOAD = insertUpload(postgresParam);
const UPSERT_PART = upsertPart(postgresParam);

export class PgS3Uploads implements S3Uploads {
  constructor(private readonly db: Queryable) {}

  async create(upload: S3Upload): Promise<void> {
    await this.db.query(INSERT_UPLOAD, uploadRowValues(upload));
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
    await this.db.query(UPSERT_PART, partRowValues(part));
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

  async usesBlob(zoneId: string, uploadId: string, key: string): Promise<boolean> {
    const { rows } = await this.db.query(
      'SELECT 1 FROM s3_upload_parts p JOIN s3_uploads u ON u.upload_id = p.upload_id WHERE u.zone_id = $1 AND p.upload_id = $2 AND p.blob_key = $3',
      [zoneId, uploadId, key],
    );
    return rows.length > 0;
  }
}
