/** File metadata, zone counters, dead blobs and usage counters of the SQLite store. */
import type Database from 'better-sqlite3';
import { prefixEnd } from '../file-paths.js';
import type { DailyFileUsage, DeadBlobs, FileRange, FileRecord, Files, FileUsage, ResourceKind, ResourceTotal, UsageCounters, UsageEntry } from '../types.js';
import { BOUND_LIMIT } from './limits.js';

type Db = Database.Database;

export interface FileRow {
  zone_id: string;
  path: string;
  parent: string;
  account_id: number;
  is_dir: number;
  size: number;
  sha256: string | null;
  md5: string | null;
  content_type: string | null;
  guid: string;
  blobs: string;
  meta: string | null;
  created_at: string;
  changed_at: string;
}

export const fileFromRow = (r: FileRow): FileRecord => ({
  zoneId: r.zone_id,
  accountId: r.account_id,
  path: r.path,
  parent: r.parent,
  isDirectory: r.is_dir === 1,
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

const COLUMNS = 'zone_id, path, parent, account_id, is_dir, size, sha256, md5, content_type, guid, blobs, meta, created_at, changed_at';

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

  constructor(db: Db) {
    this.getStmt = db.prepare<[string, string], FileRow>(`SELECT ${COLUMNS} FROM files WHERE zone_id = ? AND path = ?`);
    this.guidStmt = db.prepare<[string, string], { blobs: string }>('SELECT blobs FROM files WHERE zone_id = ? AND guid = ?');
    this.childrenStmt = db.prepare<[string, string], FileRow>(`SELECT ${COLUMNS} FROM files WHERE zone_id = ? AND parent = ? ORDER BY path`);
    this.rangeStmt = db.prepare<[string, string, string, string, number], FileRow>(
      `SELECT ${COLUMNS} FROM files WHERE zone_id = ? AND path >= ? AND path < ? AND path > ? ORDER BY path ${BOUND_LIMIT}`,
    );
    this.rangeFilesStmt = db.prepare<[string, string, string, string, number], FileRow>(
      `SELECT ${COLUMNS} FROM files WHERE zone_id = ? AND path >= ? AND path < ? AND path > ? AND is_dir = 0 ORDER BY path ${BOUND_LIMIT}`,
    );
    this.upsertStmt = db.prepare(`INSERT OR REPLACE INTO files (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.dirStmt = db.prepare(
      `INSERT INTO files (${COLUMNS}) VALUES (?, ?, ?, ?, 1, 0, NULL, NULL, NULL, ?, '[]', NULL, ?, ?) ON CONFLICT (zone_id, path) DO NOTHING`,
    );
    this.removeStmt = db.prepare<[string, string], FileRow>(`DELETE FROM files WHERE zone_id = ? AND path = ? RETURNING ${COLUMNS}`);
    this.underStmt = db.prepare<[string, string, string, number], { path: string }>(
      `SELECT path FROM files WHERE zone_id = ? AND path >= ? AND path < ? ORDER BY path ${BOUND_LIMIT}`,
    );
    this.removeUnderStmt = db.prepare<[string, string, string], FileRow>(
      `DELETE FROM files WHERE zone_id = ? AND path >= ? AND path <= ? RETURNING ${COLUMNS}`,
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

/** `a/b/c.txt` → `a/b/`; `a/b/` → `a/`; `a/` → ``. */
export function parentOf(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const cut = trimmed.lastIndexOf('/');
  return cut < 0 ? '' : trimmed.slice(0, cut + 1);
}

export class SqliteDeadBlobs implements DeadBlobs {
  private readonly addStmt;
  private readonly dueStmt;
  private readonly forgetStmt;
  constructor(db: Db) {
    this.addStmt = db.prepare<[string, number]>('INSERT INTO dead_blobs (key, dead_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');
    this.dueStmt = db.prepare<[number, number], { key: string }>(`SELECT key FROM dead_blobs WHERE dead_at <= ? ORDER BY dead_at ${BOUND_LIMIT}`);
    this.forgetStmt = db.prepare<[string]>('DELETE FROM dead_blobs WHERE key = ?');
  }
  async add(keys: string[], deadAt: number): Promise<void> {
    for (const key of keys) this.addStmt.run(key, deadAt);
  }
  async due(before: number, limit: number): Promise<string[]> {
    return this.dueStmt.all(before, limit).map((r) => r.key);
  }
  async forget(keys: string[]): Promise<void> {
    for (const key of keys) this.forgetStmt.run(key);
  }
}

export class SqliteUsageCounters implements UsageCounters {
  private readonly addStmt;
  private readonly seriesStatements = new Map<number, Database.Statement<unknown[], UsageEntry>>();
  private readonly totalsStatements = new Map<number, Database.Statement<unknown[], ResourceTotal>>();
  constructor(private readonly db: Db) {
    this.addStmt = db.prepare<[string, string, number, number]>(
      `INSERT INTO usage_counters (subject, metric, hour, value) VALUES (?, ?, ?, ?)
       ON CONFLICT (subject, metric, hour) DO UPDATE SET value = value + excluded.value`,
    );
  }
  async add(entries: UsageEntry[]): Promise<void> {
    for (const e of entries) this.addStmt.run(e.subject, e.metric, e.hour, e.value);
  }
  async series(subject: string, metrics: string[], fromHour: number, toHour: number): Promise<UsageEntry[]> {
    let stmt = this.seriesStatements.get(metrics.length);
    if (!stmt) {
      stmt = this.db.prepare<unknown[], UsageEntry>(
        `SELECT subject, metric, hour, value FROM usage_counters
         WHERE subject = ? AND metric IN (${metrics.map(() => '?').join(', ')}) AND hour >= ? AND hour <= ? ORDER BY hour`,
      );
      this.seriesStatements.set(metrics.length, stmt);
    }
    return stmt.all(subject, ...metrics, fromHour, toHour);
  }
  async accountTotals(kind: ResourceKind, accountId: number, metrics: string[], fromHour: number, toHour: number): Promise<ResourceTotal[]> {
    let stmt = this.totalsStatements.get(metrics.length);
    if (!stmt) {
      // One index probe per resource of the account: the subject is the counters' key's first column.
      stmt = this.db.prepare<unknown[], ResourceTotal>(
        `SELECT r.id AS id, u.metric AS metric, sum(u.value) AS value
         FROM resources r JOIN usage_counters u ON u.subject = ? || r.id
         WHERE r.kind = ? AND r.account_id = ? AND u.metric IN (${metrics.map(() => '?').join(', ')}) AND u.hour >= ? AND u.hour <= ?
         GROUP BY r.id, u.metric`,
      );
      this.totalsStatements.set(metrics.length, stmt);
    }
    return stmt.all(`${kind}:`, kind, accountId, ...metrics, fromHour, toHour);
  }
}
