/** The audit log on SQLite (migration 0005). */
import type Database from 'better-sqlite3';
import { AUDIT_SELECT, auditConditions, auditFromRow, type AuditRow } from '../tables/audit-log.js';
import type { AuditEntry, AuditLog, AuditQuery } from '../types.js';
import { BOUND_LIMIT } from './limits.js';

export class SqliteAuditLog implements AuditLog {
  private readonly insertStmt;
  private readonly purgeStmt;
  constructor(private readonly db: Database.Database) {
    this.insertStmt = db.prepare(
      'INSERT INTO audit_log (account_id, day, at, product, resource_type, resource_id, action, actor_id, actor_type, diff) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.purgeStmt = db.prepare<[string]>('DELETE FROM audit_log WHERE day < ?');
  }
  async add(entries: readonly Omit<AuditEntry, 'id'>[]): Promise<void> {
    for (const e of entries) this.insertStmt.run(e.accountId, e.day, e.at, e.product, e.resourceType, e.resourceId, e.action, e.actorId, e.actorType, e.diff);
  }
  async list(accountId: number, query: AuditQuery): Promise<AuditEntry[]> {
    const { where, values } = auditConditions(accountId, query, () => '?');
    // The filters vary per request; better-sqlite3 caches nothing across prepares, and a day's log is small.
    const sql = `SELECT ${AUDIT_SELECT} FROM audit_log WHERE ${where} ORDER BY id ${query.descending ? 'DESC' : 'ASC'} ${BOUND_LIMIT}`;
    return (this.db.prepare(sql).all(...values, query.limit) as AuditRow[]).map(auditFromRow);
  }
  async purgeBefore(day: string): Promise<number> {
    return this.purgeStmt.run(day).changes;
  }
}
