/** The pull zones' origin errors on PostgreSQL (migration 0016). */
import { ORIGIN_ERROR_COLUMNS, type OriginErrorRow, originErrorFromRow, originErrorValues, trimDayStatement } from '../tables/origin-errors.js';
import type { OriginErrorEntry, OriginErrors } from '../types.js';
import type { Queryable } from './queryable.js';

const TRIM = trimDayStatement((n) => `$${n}`);
const COLUMN_TYPES = ['int', 'bigint', 'bigint', 'bigint', 'text', 'text', 'int', 'text', 'text', 'text'];

export class PgOriginErrors implements OriginErrors {
  constructor(private readonly db: Queryable) {}

  async append(entries: OriginErrorEntry[]): Promise<void> {
    if (entries.length === 0) return;
    // One statement for the whole batch: a column of values per array.
    const rows = entries.map(originErrorValues);
    const columns = COLUMN_TYPES.map((_, i) => rows.map((row) => row[i]));
    const arrays = COLUMN_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ');
    await this.db.query(`INSERT INTO origin_errors (day, ${ORIGIN_ERROR_COLUMNS}) SELECT * FROM unnest(${arrays})`, columns);
  }

  async between(pullZoneId: number, from: number, to: number, limit: number): Promise<OriginErrorEntry[]> {
    const { rows } = await this.db.query<OriginErrorRow>(
      'SELECT * FROM origin_errors WHERE pull_zone_id = $1 AND at >= $2 AND at < $3 ORDER BY at, id LIMIT $4',
      [pullZoneId, from, to, limit],
    );
    return rows.map(originErrorFromRow);
  }

  async trimDay(pullZoneId: number, day: number, keep: number): Promise<number> {
    const { rowCount } = await this.db.query(TRIM, [pullZoneId, day, keep]);
    return rowCount ?? 0;
  }

  async removeZone(pullZoneId: number): Promise<number> {
    const { rowCount } = await this.db.query('DELETE FROM origin_errors WHERE pull_zone_id = $1', [pullZoneId]);
    return rowCount ?? 0;
  }

  async expire(before: number): Promise<number> {
    const { rowCount } = await this.db.query('DELETE FROM origin_errors WHERE at < $1', [before]);
    return rowCount ?? 0;
  }
}
