/** The pull zones' access log on PostgreSQL (migrations 0009, 0011). */
import { type AccessLogRow, accessLogFromRow, trimStatement } from '../tables/access-log.js';
import type { AccessLog, AccessLogEntry } from '../types.js';
import type { Queryable } from './queryable.js';

const TRIM = trimStatement((n) => `$${n}`);

export class PgAccessLog implements AccessLog {
  constructor(private readonly db: Queryable) {}

  async append(entries: Omit<AccessLogEntry, 'id'>[]): Promise<void> {
    if (entries.length === 0) return;
    // One statement for the whole batch: a flush writes every zone's chunk at once.
    await this.db.query(
      'INSERT INTO access_log (account_id, pull_zone_id, at, lines, entry) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::int[], $5::text[])',
      [entries.map((e) => e.accountId), entries.map((e) => e.pullZoneId), entries.map((e) => e.at), entries.map((e) => e.lines), entries.map((e) => e.entry)],
    );
  }

  async newest(pullZoneId: number, options: { beforeId?: number | undefined; limit: number }): Promise<AccessLogEntry[]> {
    const { rows } =
      options.beforeId === undefined
        ? await this.db.query<AccessLogRow>('SELECT * FROM access_log WHERE pull_zone_id = $1 ORDER BY id DESC LIMIT $2', [pullZoneId, options.limit])
        : await this.db.query<AccessLogRow>('SELECT * FROM access_log WHERE pull_zone_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3', [
            pullZoneId,
            options.beforeId,
            options.limit,
          ]);
    return rows.map(accessLogFromRow);
  }

  async trim(pullZoneIds: number[], keep: number): Promise<number> {
    let removed = 0;
    for (const id of pullZoneIds) {
      const { rowCount } = keep === 0 ? await this.db.query('DELETE FROM access_log WHERE pull_zone_id = $1', [id]) : await this.db.query(TRIM, [id, keep]);
      removed += rowCount ?? 0;
    }
    return removed;
  }

  async expire(before: number): Promise<number> {
    const { rowCount } = await this.db.query('DELETE FROM access_log WHERE at < $1', [before]);
    return rowCount ?? 0;
  }
}
