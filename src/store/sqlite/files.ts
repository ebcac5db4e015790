/** Storage zones' file metadata and their counters on SQLite (migration 0004). */
import type Database from 'better-sqlite3';
import { prefixEnd } from '../file-paths.js';
import { FILE_SELECT, type FileRow, fileFromRow, fileRowValues, parentOf } from '../tables/files.js';
import type { DailyFileUsage, FileRange, FileRecord, Files, FileUsage } from '../types.js';
import { BOUND_LIMIT } from './limits.js';

export class SqliteFiles implements Files {
  private readonly getStmt;
  private readonly guidStmt;
  private readonly childrenStmt;
  private readonly rangeStmt;
  private readonly rangeFilesStmt;
  private readonly upsertStmt;
  private readonly dirStmt;
  private readonly removeStmt;
  private readonly underStmt;
  private readonly removeUnderStmt;
  private readonly usageStmt;
  private readonly changeUsageStmt;
  private readonly dayStmt;
  private readonly dailyStmt;
  private readonly beforeStmt;
  private readonly accountDailyStmt;

  constructor(db: Database.Database) {
    this.getStmt = db.prepare<[string, string], FileRow>(`SELECT ${FILE_SELECT} FROM files WHERE zone_id = ? AND path = ?`);
    this.guidStmt = db.prepare<[string, string], { blobs: string }>('SELECT blobs FROM files WHERE zone_id = ? AND guid = ?');
    this.childrenStmt = db.prepare<[string, string], FileRow>(`SELECT ${FILE_SELECT} FROM files WHERE zone_id = ? AND parent = ? ORDER BY path`);
    this.rangeStmt = db.prepare<[string, string, string, string, number], FileRow>(
      `SELECT ${FILE_SELECT} FROM files WHERE zone_id = ? AND path >= ? AND path < ? AND path > ? ORDER BY path ${BOUND_LIMIT}`,
    );
    this.rangeFilesStmt = db.prepare<[string, string, string, string, number], FileRow>(
      `SELECT ${FILE_SELECT} FROM files WHERE zone_id = ? AND path >= ? AND path < ? AND path > ? AND is_dir = 0 ORDER BY path ${BOUND_LIMIT}`,
    );
    this.upsertStmt = db.prepare(`INSERT OR REPLACE INTO files (${FILE_SELECT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.dirStmt = db.prepare(
      `INSERT INTO files (${FILE_SELECT}) VALUES (?, ?, ?, ?, 1, 0, NULL, NULL, NULL, ?, '[]', NULL, ?, ?) ON CONFLICT (zone_id, path) DO NOTHING`,
    );
    this.removeStmt = db.prepare<[string, string], FileRow>(`DELETE FROM files WHERE zone_id = ? AND path = ? RETURNING ${FILE_SELECT}`);
    this.underStmt = db.prepare<[string, string, string, number], { path: string }>(
      `SELECT path FROM files WHERE zone_id = ? AND path >= ? AND path < ? ORDER BY path ${BOUND_LIMIT}`,
    );
    this.removeUnderStmt = db.prepare<[string, string, string], FileRow>(
      `DELETE FROM files WHERE zone_id = ? AND path >= ? AND path <= ? RETURNING ${FILE_SELECT}`,
    );
    this.usageStmt = db.prepare<[string], { files: number; bytes: number }>('SELECT files, bytes FROM storage_usage WHERE zone_id = ?');
    this.changeUsageStmt = db.prepare<[string, number, number, number], { files: number; bytes: number }>(
      `INSERT INTO storage_usage (zone_id, account_id, files, bytes) VALUES (?, ?, ?, ?)
       ON CONFLICT (zone_id) DO UPDATE SET files = files + excluded.files, bytes = bytes + excluded.bytes
       RETURNING files, bytes`,
    );
    this.dayStmt = db.prepare<[string, string, number, number]>(
      `INSERT INTO storage_usage_daily (zone_id, day, files, bytes) VALUES (?, ?, ?, ?)
       ON CONFLICT (zone_id, day) DO UPDATE SET files = excluded.files, bytes = excluded.bytes`,
    );
    this.dailyStmt = db.prepare<[string, string, string], { day: string; files: number; bytes: number }>(
      'SELECT day, files, bytes FROM storage_usage_daily WHERE zone_id = ? AND day >= ? AND day <= ? ORDER BY day',
    );
    this.beforeStmt = db.prepare<[string, string], { files: number; bytes: number }>(
      'SELECT files, bytes FROM storage_usage_daily WHERE zone_id = ? AND day < ? ORDER BY day DESC LIMIT 1',
    );
    this.accountDailyStmt = db.prepare<[number, string, string, string], DailyFileUsage & { zoneId: string }>(
      `SELECT d.zone_id AS zoneId, d.day, d.files, d.bytes
       FROM resources r JOIN storage_usage_daily d ON d.zone_id = r.id
       WHERE r.kind = 'storageZone' AND r.account_id = ? AND d.day <= ?
         AND d.day >= coalesce((SELECT max(p.day) FROM storage_usage_daily p WHERE p.zone_id = r.id AND p.day < ?), ?)
       ORDER BY d.zone_id, d.day`,
    );
  }

  async get(zoneId: string, path: string): Promise<FileRecord | undefined> {
    const row = this.getStmt.get(zoneId, path);
    return row && fileFromRow(row);
  }

  async children(zoneId: string, parent: string): Promise<FileRecord[]> {
    return this.childrenStmt.all(zoneId, parent).map(fileFromRow);
  }

  async range(zoneId: string, range: FileRange): Promise<FileRecord[]> {
    const stmt = range.filesOnly ? this.rangeFilesStmt : this.rangeStmt;
    // `after` below the prefix is the same as no `after`: '' sorts below every path.
    return stmt.all(zoneId, range.prefix, prefixEnd(range.prefix), range.after ?? '', range.limit).map(fileFromRow);
  }

  async usesBlob(zoneId: string, guid: string, key: string): Promise<boolean> {
    return this.guidStmt.all(zoneId, guid).some((r) => (JSON.parse(r.blobs) as FileRecord['blobs']).some((b) => b.key === key));
  }

  async put(record: FileRecord): Promise<void> {
    this.upsertStmt.run(...fileRowValues(record));
  }

  async getMany(zoneId: string, paths: string[]): Promise<FileRecord[]> {
    const out: FileRecord[] = [];
    for (const path of paths) {
      const row = this.getStmt.get(zoneId, path);
      if (row) out.push(fileFromRow(row));
    }
    return out;
  }

  async ensureDirectories(zoneId: string, accountId: number, paths: string[], now: string): Promise<number> {
    let added = 0;
    for (const path of paths) {
      const parent = parentOf(path);
      added += this.dirStmt.run(zoneId, path, parent, accountId, crypto.randomUUID(), now, now).changes;
    }
    return added;
  }

  async remove(zoneId: string, path: string): Promise<FileRecord | undefined> {
    const row = this.removeStmt.get(zoneId, path);
    return row && fileFromRow(row);
  }

  async removeUnder(zoneId: string, prefix: string, limit: number): Promise<FileRecord[]> {
    const paths = this.underStmt.all(zoneId, prefix, prefixEnd(prefix), limit);
    if (paths.length === 0) return [];
    // The batch is the range from the prefix up to the last path found, in the same order.
    return this.removeUnderStmt.all(zoneId, prefix, paths.at(-1)!.path).map(fileFromRow);
  }

  async usage(zoneIds: string[]): Promise<Map<string, FileUsage>> {
    const out = new Map<string, FileUsage>();
    for (const id of zoneIds) out.set(id, this.usageStmt.get(id) ?? { files: 0, bytes: 0 });
    return out;
  }

  async changeUsage(zoneId: string, accountId: number, delta: FileUsage, day: string): Promise<void> {
    const totals = this.changeUsageStmt.get(zoneId, accountId, delta.files, delta.bytes)!;
    this.dayStmt.run(zoneId, day, totals.files, totals.bytes);
  }

  async dailyUsage(zoneId: string, fromDay: string, toDay: string): Promise<DailyFileUsage[]> {
    return this.dailyStmt.all(zoneId, fromDay, toDay);
  }

  async usageBefore(zoneId: string, day: string): Promise<FileUsage | undefined> {
    return this.beforeStmt.get(zoneId, day);
  }

  async accountDailyUsage(accountId: number, fromDay: string, toDay: string): Promise<(DailyFileUsage & { zoneId: string })[]> {
    return this.accountDailyStmt.all(accountId, toDay, fromDay, fromDay);
  }
}
