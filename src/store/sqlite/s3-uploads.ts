/** S3 multipart uploads in progress on SQLite (migration 0009). */
import type Database from 'better-sqlite3';
import { prefixEnd } from '../file-paths.js';
import { insertUpload, type PartRow, partFromRow, partRowValues, type UploadRow, uploadFromRow, uploadRowValues, upsertPart } from '../tables/s3-uploads.js';
import { sqliteParam } from '../tables/sql.js';
import type { S3Upload, S3UploadPart, S3Uploads } from '../types.js';
import { BOUND_LIMIT } from './limits.js';

const INSERT_UPLOAD = insertUpload(sqliteParam);
const UPSERT_PART = upsertPart(sqliteParam);

export class SqliteS3Uploads implements S3Uploads {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly listStmt;
  private readonly partStmt;
  private readonly upsertPartStmt;
  private readonly partsStmt;
  private readonly allPartsStmt;
  private readonly removeStmt;
  private readonly removeZoneStmt;
  private readonly existsStmt;
  private readonly usesBlobStmt;

  constructor(db: Database.Database) {
    this.insertStmt = db.prepare(INSERT_UPLOAD);
    this.getStmt = db.prepare<[string, string], UploadRow>('SELECT * FROM s3_uploads WHERE zone_id = ? AND upload_id = ?');
    this.listStmt = db.prepare<[string, string, string, string, string, string, number], UploadRow>(
      `SELECT * FROM s3_uploads WHERE zone_id = ? AND key >= ? AND key < ? AND (key > ? OR (key = ? AND upload_id > ?))
       ORDER BY key, upload_id ${BOUND_LIMIT}`,
    );
    this.partStmt = db.prepare<[string, number], PartRow>('SELECT * FROM s3_upload_parts WHERE upload_id = ? AND part_number = ?');
    this.upsertPartStmt = db.prepare(UPSERT_PART);
    this.partsStmt = db.prepare<[string, number, number], PartRow>(
      `SELECT * FROM s3_upload_parts WHERE upload_id = ? AND part_number > ? ORDER BY part_number ${BOUND_LIMIT}`,
    );
    this.allPartsStmt = db.prepare<[string], PartRow>('SELECT * FROM s3_upload_parts WHERE upload_id = ? ORDER BY part_number');
    this.removeStmt = db.prepare<[string]>('DELETE FROM s3_uploads WHERE upload_id = ?');
    this.removeZoneStmt = db.prepare<[string]>('DELETE FROM s3_uploads WHERE zone_id = ?');
    this.existsStmt = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM s3_uploads WHERE upload_id = ?');
    this.usesBlobStmt = db.prepare<[string, string, string], { one: number }>(
      'SELECT 1 AS one FROM s3_upload_parts p JOIN s3_uploads u ON u.upload_id = p.upload_id WHERE u.zone_id = ? AND p.upload_id = ? AND p.blob_key = ?',
    );
  }

  async create(upload: S3Upload): Promise<void> {
    this.insertStmt.run(...uploadRowValues(upload));
  }

  async get(zoneId: string, uploadId: string): Promise<S3Upload | undefined> {
    const row = this.getStmt.get(zoneId, uploadId);
    return row && uploadFromRow(row);
  }

  async list(zoneId: string, query: { prefix: string; after?: { key: string; uploadId: string } | undefined; limit: number }): Promise<S3Upload[]> {
    const after = query.after ?? { key: '', uploadId: '' };
    return this.listStmt.all(zoneId, query.prefix, prefixEnd(query.prefix), after.key, after.key, after.uploadId, query.limit).map(uploadFromRow);
  }

  async putPart(part: S3UploadPart): Promise<{ replaced: S3UploadPart | undefined } | undefined> {
    if (!this.existsStmt.get(part.uploadId)) return undefined;
    const previous = this.partStmt.get(part.uploadId, part.partNumber);
    this.upsertPartStmt.run(...partRowValues(part));
    return { replaced: previous && partFromRow(previous) };
  }

  async parts(uploadId: string, after: number, limit: number): Promise<S3UploadPart[]> {
    return this.partsStmt.all(uploadId, after, limit).map(partFromRow);
  }

  async remove(uploadId: string): Promise<S3UploadPart[] | undefined> {
    const parts = this.allPartsStmt.all(uploadId).map(partFromRow);
    return this.removeStmt.run(uploadId).changes === 0 ? undefined : parts;
  }

  async removeZone(zoneId: string): Promise<void> {
    this.removeZoneStmt.run(zoneId);
  }

  async usesBlob(zoneId: string, uploadId: string, key: string): Promise<boolean> {
    return this.usesBlobStmt.get(zoneId, uploadId, key) !== undefined;
  }
}
