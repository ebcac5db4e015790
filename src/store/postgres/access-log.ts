/** The pull zones' access log on PostgreSQL (migration 0009). */
import type { AccessLog, AccessLogEntry } from '../types.js';
import type { Queryable } from './repositories.js';

export interface Row {
  id: number;
  account_id: number;
  pull_zone_id: number;
  at: number;
  entry: string;
}

export const fromRow = (r: Row): AccessLogEntry => ({ id: r.id, accountId: r.account_id, pullZoneId: r.pull_zone_id, at: r.at, entry: r.entry });

export class PgAccessLog implements AccessLog {
  constructor(private readonly db: Queryable) {}

  async append(entries: Omit<AccessLogEntry, 'id'>[]): Promise<void> {
    if (entries.length === 0) return;
    // One statement for the whole batch: a flush writes every line of the last second at once.
    await this.db.query(
      'INSERT INTO access_log (account_id, pull_zone_id, at, entry) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[])',
      [entries.map((e) => e.accountId), entries.map((e) => e.pullZoneId), entries.map((e) => e.at), entries.map((e) => e.entry)],
    );
  }

  async list(pullZoneId: number, options: { offset: number; limit: number; descending: boolean }): Promise<AccessLogEntry[]> {
    const order = options.descending ? 'DESC' : 'ASC';
    const { rows } = await this.db.query<Row>(`SELECT * FROM access_log WHERE pull_zone_id = $1 ORDER BY id ${order} LIMIT $2 OFFSET $3`, [
      pullZoneId,
      options.limit,
      options.offset,
    ]);
    return rows.map(fromRow);
  }

  async trim(pullZoneIds: number[], keep: number): Promise<number> {
    let removed = 0;
    for (const id of pullZoneIds) {
      const { rowCount } =
        keep === 0
          ? await this.db.query('DELETE FROM access_log WHERE pull_zone_id = $1', [id])
          : await this.db.query(
              'DELETE FROM access_log WHERE pull_zone_id = $1 AND id <= (SELECT id FROM access_log WHERE pull_zone_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)',
              [id, keep],
            );
      removed += rowCount ?? 0;
    }
    return removed;
  }
}
