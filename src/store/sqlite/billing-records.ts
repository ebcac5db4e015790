/** The billing ledger on SQLite (migration 0005). */
import type Database from 'better-sqlite3';
import { billingFromRow, type BillingRow } from '../tables/billing-records.js';
import type { BillingRecord, BillingRecords } from '../types.js';

export class SqliteBillingRecords implements BillingRecords {
  private readonly insertStmt;
  private readonly listStmt;
  private readonly getStmt;
  constructor(db: Database.Database) {
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
