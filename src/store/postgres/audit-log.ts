/** The audit log on PostgreSQL (migration 0006). */
import { AUDIT_SELECT, auditConditions, auditFromRow, type AuditRow } from '../tables/audit-log.js';
import type { AuditEntry, AuditLog, AuditQuery } from '../types.js';
import type { Queryable } from './queryable.js';

export class PgAuditLog implements AuditLog {
  constructor(private readonly db: Queryable) {}
  /** One statement for the lot: a batch of concurrent writes' entries costs one round trip. */
  async add(entries: readonly Omit<AuditEntry, 'id'>[]): Promise<void> {
    if (entries.length === 0) return;
    const values: unknown[] = [];
    const rows = entries.map((e) => {
      const at = values.length;
      values.push(e.accountId, e.day, e.at, e.product, e.resourceType, e.resourceId, e.action, e.actorId, e.actorType, e.diff);
      return `(${Array.from({ length: 10 }, (_, i) => `$${at + i + 1}`).join(', ')})`;
    });
    await this.db.query(
      `INSERT INTO audit_log (account_id, day, at, product, resource_type, resource_id, action, actor_id, actor_type, diff) VALUES ${rows.join(', ')}`,
      values,
    );
  }
  async list(accountId: number, query: AuditQuery): Promise<AuditEntry[]> {
    const { where, values } = auditConditions(accountId, query, (i) => `$${i}`);
    values.push(query.limit);
    const sql = `SELECT ${AUDIT_SELECT} FROM audit_log WHERE ${where} ORDER BY id ${query.descending ? 'DESC' : 'ASC'} LIMIT $${values.length}`;
    return (await this.db.query<AuditRow>(sql, values)).rows.map(auditFromRow);
  }
  async purgeBefore(day: string): Promise<number> {
    return (await this.db.query('DELETE FROM audit_log WHERE day < $1', [day])).rowCount ?? 0;
  }
}
