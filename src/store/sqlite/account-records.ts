/** The audit log and the billing ledger on SQLite (migration 0005). */
import type Database from 'better-sqlite3';
import { AUDIT_COLUMNS, auditConditions, auditFromRow, type AuditRow, billingFromRow, type BillingRow } from '../account-records.js';
import type { AuditEntry, AuditLog, AuditQuery, BillingRecord, BillingRecords } from '../types.js';
import { BOUND_LIMIT } from './limits.js';

type Db = Database.Database;

export class SqliteAuditLog implements AuditLog {
  private readonly insertStmt;
  private readonly purgeStmt;
  constructor(private readonly db: Db) {
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
    const sql = `SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE ${where} ORDER BY id ${query.descending ? 'DESC' : 'ASC'} ${BOUND_LIMIT}`;
    return (this.db.prepare(sql).all(...values, query.limit) as AuditRow[]).map(auditFromRow);
  }
  async purgeBefore(day: string): Promise<number> {
    return this.purgeStmt.run(day).changes;
  }
}

export class SqliteBillingRecords implements BillingRecords {
  private readonly insertStmt;
  private readonly listStmt;
  private readonly getStmt;
  constructor(db: Db) {
    this.insertStmt = db.prepare<[number, number, number, string, string | null, string | null, string | null], BillingRow>(
      'INSERT INTO billing_records (account_id, type, amount, at, month, payer, details) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING *',
    );
    this.listStmt = db.prepare<[number], BillingRow>('SELECT * FROM billing_records WHERE account_id = ? ORDER BY id');
    this.getStmt = db.prepare<[number, number], BillingRow>('SELECT * FROM billing_records WHERE account_id = ? AND id = ?');
  }
  async add(r: Omit<BillingRecord, 'id'>): Promise<BillingRecord | undefined> {
    const row = this.insertStmt.get(r.accountId, r.recordType, r.amount, r.at, r.month, r.payer, r.details);
    return row && billingFromRow(row);
  }
  async list(accountId: number): Promise<BillingRecord[]> {
    return this.listStmt.all(accountId).map(billingFromRow);
  }
  async get(accountId: number, id: number): Promise<BillingRecord | undefined> {
    const row = this.getStmt.get(accountId, id);
    return row && billingFromRow(row);
  }
}
