/** File metadata, zone counters, dead blobs and usage counters of the PostgreSQL store. */
import { prefixEnd } from '../file-paths.js';
import type { DailyFileUsage, DeadBlobs, FileRange, FileRecord, Files, FileUsage, ResourceKind, ResourceTotal, UsageCounters, UsageEntry } from '../types.js';
import type { Queryable } from './queryable.js';

export interface FileRow {
  zone_id: string;
  path: string;
  parent: string;
  account_id: number;
  is_dir: boolean;
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
  isDirectory: r.is_dir,
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
  f.isDirectory,
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

export const FILE_COLUMNS = 'zone_id, path, parent, account_id, is_dir, size, sha256, md5, content_type, guid, blobs, meta, created_at, changed_at';
const VALUES = '$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14';

const rows = async <R>(db: Queryable, sql: string, values: unknown[]) => (await db.query<R & Record<string, unknown>>(sql, values)).rows as R[];

export class PgFiles implements Files {
  /** `lock`: inside a transaction, an entry read to be replaced is locked until it commits. */
  constructor(
    private readonly db: Queryable,
    private readonly lock: boolean,
  ) {}

  async get(zoneId: string, path: string): Promise<FileRecord | undefined> {
    const [row] = await rows<FileRow>(this.db, `SELECT ${FILE_COLUMNS} FROM files WHERE zone_id = $1 AND path = $2`, [zoneId, path]);
    return row && fileFromRow(row);
  }

  async children(zoneId: string, parent: string): Promise<FileRecord[]> {
    return (await rows<FileRow>(this.db, `SELECT ${FILE_COLUMNS} FROM files WHERE zone_id = $1 AND parent = $2 ORDER BY path`, [zoneId, parent])).map(
      fileFromRow,
    );
  }

  async range(zoneId: string, range: FileRange): Promise<FileRecord[]> {
    return (
      await rows<FileRow>(
        this.db,
        `SELECT ${FILE_COLUMNS} FROM files WHERE zone_id = $1 AND path >= $2 AND path < $3 AND path > $4${range.filesOnly ? ' AND NOT is_dir' : ''}
         ORDER BY path LIMIT $5`,
        [zoneId, range.prefix, prefixEnd(range.prefix), range.after ?? '', range.limit],
      )
    ).map(fileFromRow);
  }

  async usesBlob(zoneId: string, guid: string, key: string): Promise<boolean> {
    const found = await rows<{ blobs: string }>(this.db, 'SELECT blobs FROM files WHERE zone_id = $1 AND guid = $2', [zoneId, guid]);
    return found.some((r) => (JSON.parse(r.blobs) as FileRecord['blobs']).some((b) => b.key === key));
  }

  async getMany(zoneId: string, paths: string[]): Promise<FileRecord[]> {
    if (paths.length === 0) return [];
    // Locked inside a transaction: an entry read to be replaced stays as read until the commit.
    const sql = `SELECT ${FILE_COLUMNS} FROM files WHERE zone_id = $1 AND path = ANY($2::text[])${this.lock ? ' FOR UPDATE' : ''}`;
    return (await rows<FileRow>(this.db, sql, [zoneId, paths])).map(fileFromRow);
  }

  async put(record: FileRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO files (${FILE_COLUMNS}) VALUES (${VALUES})
       ON CONFLICT (zone_id, path) DO UPDATE SET parent = excluded.parent, account_id = excluded.account_id, is_dir = excluded.is_dir,
         size = excluded.size, sha256 = excluded.sha256, md5 = excluded.md5, content_type = excluded.content_type, guid = excluded.guid,
         blobs = excluded.blobs, meta = excluded.meta, created_at = excluded.created_at, changed_at = excluded.changed_at`,
      fileRowValues(record),
    );
  }

  async ensureDirectories(zoneId: string, accountId: number, paths: string[], now: string): Promise<number> {
    if (paths.length === 0) return 0;
    const result = await this.db.query(
      `INSERT INTO files (${FILE_COLUMNS})
       SELECT $1, p.path, p.parent, $2, TRUE, 0, NULL, NULL, NULL, gen_random_uuid()::text, '[]', NULL, $3, $3
       FROM unnest($4::text[], $5::text[]) AS p(path, parent)
       ON CONFLICT (zone_id, path) DO NOTHING`,
      [zoneId, accountId, now, paths, paths.map(parentOf)],
    );
    return result.rowCount ?? 0;
  }

  async remove(zoneId: string, path: string): Promise<FileRecord | undefined> {
    const [row] = await rows<FileRow>(this.db, `DELETE FROM files WHERE zone_id = $1 AND path = $2 RETURNING ${FILE_COLUMNS}`, [zoneId, path]);
    return row && fileFromRow(row);
  }

  async removeUnder(zoneId: string, prefix: string, limit: number): Promise<FileRecord[]> {
    return (
      await rows<FileRow>(
        this.db,
        `DELETE FROM files WHERE zone_id = $1 AND path IN (
           SELECT path FROM files WHERE zone_id = $1 AND path >= $2 AND path < $3 ORDER BY path LIMIT $4)
         RETURNING ${FILE_COLUMNS}`,
        [zoneId, prefix, prefixEnd(prefix), limit],
      )
    ).map(fileFromRow);
  }

  async usage(zoneIds: string[]): Promise<Map<string, FileUsage>> {
    const out = new Map<string, FileUsage>(zoneIds.map((id) => [id, { files: 0, bytes: 0 }]));
    if (zoneIds.length === 0) return out;
    for (const r of await rows<{ zone_id: string; files: number; bytes: number }>(
      this.db,
      'SELECT zone_id, files, bytes FROM storage_usage WHERE zone_id = ANY($1::text[])',
      [zoneIds],
    )) {
      out.set(r.zone_id, { files: r.files, bytes: r.bytes });
    }
    return out;
  }

  async changeUsage(zoneId: string, accountId: number, delta: FileUsage, day: string): Promise<void> {
    const [totals] = await rows<FileUsage>(
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
    return rows(this.db, 'SELECT day, files, bytes FROM storage_usage_daily WHERE zone_id = $1 AND day >= $2 AND day <= $3 ORDER BY day', [
      zoneId,
      fromDay,
      toDay,
    ]);
  }

  async accountDailyUsage(accountId: number, fromDay: string, toDay: string): Promise<(DailyFileUsage & { zoneId: string })[]> {
    return rows(
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
    const [row] = await rows<FileUsage>(this.db, 'SELECT files, bytes FROM storage_usage_daily WHERE zone_id = $1 AND day < $2 ORDER BY day DESC LIMIT 1', [
      zoneId,
      day,
    ]);
    return row;
  }
}

/** `a/b/c.txt` → `a/b/`; `a/b/` → `a/`; `a/` → ``. */
function parentOf(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const cut = trimmed.lastIndexOf('/');
  return cut < 0 ? '' : trimmed.slice(0, cut + 1);
}

export class PgDeadBlobs implements DeadBlobs {
  constructor(private readonly db: Queryable) {}
  async add(keys: string[], deadAt: number): Promise<void> {
    if (keys.length === 0) return;
    await this.db.query('INSERT INTO dead_blobs (key, dead_at) SELECT unnest($1::text[]), $2 ON CONFLICT (key) DO NOTHING', [keys, deadAt]);
  }
  async due(before: number, limit: number): Promise<string[]> {
    return (await rows<{ key: string }>(this.db, 'SELECT key FROM dead_blobs WHERE dead_at <= $1 ORDER BY dead_at LIMIT $2', [before, limit])).map(
      (r) => r.key,
    );
  }
  async forget(keys: string[]): Promise<void> {
    if (keys.length > 0) await this.db.query('DELETE FROM dead_blobs WHERE key = ANY($1::text[])', [keys]);
  }
}

export class PgUsageCounters implements UsageCounters {
  constructor(private readonly db: Queryable) {}
  async add(entries: UsageEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.query(
      `INSERT INTO usage_counters (subject, metric, hour, value)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[])
       ON CONFLICT (subject, metric, hour) DO UPDATE SET value = usage_counters.value + excluded.value`,
      [entries.map((e) => e.subject), entries.map((e) => e.metric), entries.map((e) => e.hour), entries.map((e) => e.value)],
    );
  }
  async series(subject: string, metrics: string[], fromHour: number, toHour: number): Promise<UsageEntry[]> {
    return rows(
      this.db,
      'SELECT subject, metric, hour, value FROM usage_counters WHERE subject = $1 AND metric = ANY($2::text[]) AND hour >= $3 AND hour <= $4 ORDER BY hour',
      [subject, metrics, fromHour, toHour],
    );
  }
  async accountTotals(kind: ResourceKind, accountId: number, metrics: string[], fromHour: number, toHour: number): Promise<ResourceTotal[]> {
    return rows(
      this.db,
      `SELECT r.id, u.metric, sum(u.value) AS value
       FROM resources r JOIN usage_counters u ON u.subject = $1 || r.id
       WHERE r.kind = $2 AND r.account_id = $3 AND u.metric = ANY($4::text[]) AND u.hour >= $5 AND u.hour <= $6
       GROUP BY r.id, u.metric`,
      [`${kind}:`, kind, accountId, metrics, fromHour, toHour],
    );
  }
}
