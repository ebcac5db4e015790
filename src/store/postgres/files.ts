/** Storage zones' file metadata and their counters on PostgreSQL (migration 0005). */
import { prefixEnd } from '../file-paths.js';
import { FILE_COLUMNS, FILE_SELECT, type FileRow, fileFromRow, fileRowValues, parentOf } from '../tables/files.js';
import { insertSql, postgresParam } from '../tables/sql.js';
import type { DailyFileUsage, FileRange, FileRecord, Files, FileUsage } from '../types.js';
import { type Queryable, run } from './queryable.js';

const INSERT_FILE = insertSql('files', FILE_COLUMNS, postgresParam);

export class PgFiles implements Files {
  /** `lock`: inside a transaction, an entry read to be replaced is locked until it commits. */
  constructor(
    private readonly db: Queryable,
    private readonly lock: boolean,
  ) {}

  async get(zoneId: string, path: string): Promise<FileRecord | undefined> {
    const [row] = await run<FileRow>(this.db, `SELECT ${FILE_SELECT} FROM files WHERE zone_id = $1 AND path = $2`, [zoneId, path]);
    return row && fileFromRow(row);
  }

  async children(zoneId: string, parent: string): Promise<FileRecord[]> {
    return (await run<FileRow>(this.db, `SELECT ${FILE_SELECT} FROM files WHERE zone_id = $1 AND parent = $2 ORDER BY path`, [zoneId, parent])).map(
      fileFromRow,
    );
  }

  async range(zoneId: string, range: FileRange): Promise<FileRecord[]> {
    return (
      await run<FileRow>(
        this.db,
        `SELECT ${FILE_SELECT} FROM files WHERE zone_id = $1 AND path >= $2 AND path < $3 AND path > $4${range.filesOnly ? ' AND NOT is_dir' : ''}
         ORDER BY path LIMIT $5`,
        [zoneId, range.prefix, prefixEnd(range.prefix), range.after ?? '', range.limit],
      )
    ).map(fileFromRow);
  }

  async usesBlob(zoneId: string, guid: string, key: string): Promise<boolean> {
    const found = await run<{ blobs: string }>(this.db, 'SELECT blobs FROM files WHERE zone_id = $1 AND guid = $2', [zoneId, guid]);
    return found.some((r) => (JSON.parse(r.blobs) as FileRecord['blobs']).some((b) => b.key === key));
  }

  async getMany(zoneId: string, paths: string[]): Promise<FileRecord[]> {
    if (paths.length === 0) return [];
    // Locked inside a transaction: an entry read to be replaced stays as read until the commit.
    const sql = `SELECT ${FILE_SELECT} FROM files WHERE zone_id = $1 AND path = ANY($2::text[])${this.lock ? ' FOR UPDATE' : ''}`;
    return (await run<FileRow>(this.db, sql, [zoneId, paths])).map(fileFromRow);
  }

  async put(record: FileRecord): Promise<void> {
    await this.db.query(
      `${INSERT_FILE}
       ON CONFLICT (zone_id, path) DO UPDATE SET parent = excluded.parent, account_id = excluded.account_id, is_dir = excluded.is_dir,
         size = excluded.size, sha256 = excluded.sha256, md5 = excluded.md5, content_type = excluded.content_type, guid = excluded.guid,
         blobs = excluded.blobs, meta = excluded.meta, created_at = excluded.created_at, changed_at = excluded.changed_at`,
      fileRowValues(record),
    );
  }

  async ensureDirectories(zoneId: string, accountId: number, paths: string[], now: string): Promise<number> {
    if (paths.length === 0) return 0;
    const result = await this.db.query(
      `INSERT INTO files (${FILE_SELECT})
       SELECT $1, p.path, p.parent, $2, TRUE, 0, NULL, NULL, NULL, gen_random_uuid()::text, '[]', NULL, $3, $3
       FROM unnest($4::text[], $5::text[]) AS p(path, parent)
       ON CONFLICT (zone_id, path) DO NOTHING`,
      [zoneId, accountId, now, paths, paths.map(parentOf)],
    );
    return result.rowCount ?? 0;
  }

  async remove(zoneId: string, path: string): Promise<FileRecord | undefined> {
    const [row] = await run<FileRow>(this.db, `DELETE FROM files WHERE zone_id = $1 AND path = $2 RETURNING ${FILE_SELECT}`, [zoneId, path]);
    return row && fileFromRow(row);
  }

  async removeUnder(zoneId: string, prefix: string, limit: number): Promise<FileRecord[]> {
    return (
      await run<FileRow>(
        this.db,
        `DELETE FROM files WHERE zone_id = $1 AND path IN (
           SELECT path FROM files WHERE zone_id = $1 AND path >= $2 AND path < $3 ORDER BY path LIMIT $4)
         RETURNING ${FILE_SELECT}`,
        [zoneId, prefix, prefixEnd(prefix), limit],
      )
    ).map(fileFromRow);
  }

  async usage(zoneIds: string[]): Promise<Map<string, FileUsage>> {
    const out = new Map<string, FileUsage>(zoneIds.map((id) => [id, { files: 0, bytes: 0 }]));
    if (zoneIds.length === 0) return out;
    for (const r of await run<{ zone_id: string; files: number; bytes: number }>(
      this.db,
      'SELECT zone_id, files, bytes FROM storage_usage WHERE zone_id = ANY($1::text[])',
      [zoneIds],
    )) {
      out.set(r.zone_id, { files: r.files, bytes: r.bytes });
    }
    return out;
  }

  async changeUsage(zoneId: string, accountId: number, delta: FileUsage, day: string): Promise<void> {
    const [totals] = await run<FileUsage>(
      this.db,
      `INSERT INTO storage_usage (zone_id, account_id, files, bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (zone_id) DO UPDATE SET files = storage_usage.files + excluded.files, bytes = storage_usage.bytes + excluded.bytes
       RETURNING files, bytes`,
      [zoneId, accountId, delta.files, delta.bytes],
    );
    await this.db.query(
      `INSERT INTO storage_usage_daily (zone_id, day, files, bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (zone_id, day) DO UPDATE SET files = excluded.files, bytes = excluded.bytes`,
      [zoneId, day, totals!.files, totals!.bytes],
    );
  }

  async dailyUsage(zoneId: string, fromDay: string, toDay: string): Promise<DailyFileUsage[]> {
    return run(this.db, 'SELECT day, files, bytes FROM storage_usage_daily WHERE zone_id = $1 AND day >= $2 AND day <= $3 ORDER BY day', [
      zoneId,
      fromDay,
      toDay,
    ]);
  }

  async accountDailyUsage(accountId: number, fromDay: string, toDay: string): Promise<(DailyFileUsage & { zoneId: string })[]> {
    return run(
      this.db,
      `SELECT d.zone_id AS "zoneId", d.day, d.files, d.bytes
       FROM resources r JOIN storage_usage_daily d ON d.zone_id = r.id
       WHERE r.kind = 'storageZone' AND r.account_id = $1 AND d.day <= $2
         AND d.day >= coalesce((SELECT max(p.day) FROM storage_usage_daily p WHERE p.zone_id = r.id AND p.day < $3), $3)
       ORDER BY d.zone_id, d.day`,
      [accountId, toDay, fromDay],
    );
  }

  async usageBefore(zoneId: string, day: string): Promise<FileUsage | undefined> {
    const [row] = await run<FileUsage>(this.db, 'SELECT files, bytes FROM storage_usage_daily WHERE zone_id = $1 AND day < $2 ORDER BY day DESC LIMIT 1', [
      zoneId,
      day,
    ]);
    return row;
  }
}
