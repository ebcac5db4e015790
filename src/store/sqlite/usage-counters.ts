/** The planes' hourly counters on SQLite (migration 0004). */
import type Database from 'better-sqlite3';
import type { ResourceKind, ResourceTotal, UsageCounters, UsageEntry } from '../types.js';

export class SqliteUsageCounters implements UsageCounters {
  private readonly addStmt;
  private readonly removeStmt;
  private readonly seriesStatements = new Map<number, Database.Statement<unknown[], UsageEntry>>();
  private readonly totalsStatements = new Map<number, Database.Statement<unknown[], ResourceTotal>>();
  constructor(private readonly db: Database.Database) {
    this.addStmt = db.prepare<[string, string, number, number]>(
      `INSERT INTO usage_counters (subject, metric, hour, value) VALUES (?, ?, ?, ?)
       ON CONFLICT (subject, metric, hour) DO UPDATE SET value = value + excluded.value`,
    );
    this.removeStmt = db.prepare<[string]>('DELETE FROM usage_counters WHERE subject = ?');
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
  async remove(subjects: string[]): Promise<void> {
    for (const subject of subjects) this.removeStmt.run(subject);
  }
}
