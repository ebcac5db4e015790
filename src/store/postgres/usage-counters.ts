/** The planes' hourly counters on PostgreSQL (migration 0005). */
import type { ResourceKind, ResourceTotal, UsageCounters, UsageEntry } from '../types.js';
import { type Queryable, run } from './queryable.js';

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
    return run(
      this.db,
      'SELECT subject, metric, hour, value FROM usage_counters WHERE subject = $1 AND metric = ANY($2::text[]) AND hour >= $3 AND hour <= $4 ORDER BY hour',
      [subject, metrics, fromHour, toHour],
    );
  }
  async accountTotals(kind: ResourceKind, accountId: number, metrics: string[], fromHour: number, toHour: number): Promise<ResourceTotal[]> {
    return run(
      this.db,
      `SELECT r.id, u.metric, sum(u.value) AS value
       FROM resources r JOIN usage_counters u ON u.subject = $1 || r.id
       WHERE r.kind = $2 AND r.account_id = $3 AND u.metric = ANY($4::text[]) AND u.hour >= $5 AND u.hour <= $6
       GROUP BY r.id, u.metric`,
      [`${kind}:`, kind, accountId, metrics, fromHour, toHour],
    );
  }
  async remove(subjects: string[]): Promise<void> {
    if (subjects.length === 0) return;
    await this.db.query('DELETE FROM usage_counters WHERE subject = ANY($1::text[])', [subjects]);
  }
}
