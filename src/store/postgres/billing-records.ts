/** The billing ledger on PostgreSQL (migration 0006). */
import { billingFromRow, type BillingRow } from '../tables/billing-records.js';
import type { BillingRecord, BillingRecords } from '../types.js';
import type { Queryable } from './queryable.js';

export class PgBillingRecords implements BillingRecords {
  constructor(private readonly db: Queryable) {}
  async add(r: Omit<BillingRecord, 'id'>): Promise<BillingRecord | undefined> {
    const { rows } = await this.db.query<BillingRow>(
      'INSERT INTO billing_records (account_id, type, amount, at, month, payer, details) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING *',
      [r.accountId, r.recordType, r.amount, r.at, r.month, r.payer, r.details],
    );
    return rows[0] && billingFromRow(rows[0]);
  }
  async list(accountId: number): Promise<BillingRecord[]> {
    return (await this.db.query<BillingRow>('SELECT * FROM billing_records WHERE account_id = $1 ORDER BY id', [accountId])).rows.map(billingFromRow);
  }
  async get(accountId: number, id: number): Promise<BillingRecord | undefined> {
    const { rows } = await this.db.query<BillingRow>('SELECT * FROM billing_records WHERE account_id = $1 AND id = $2', [accountId, id]);
    return rows[0] && billingFromRow(rows[0]);
  }
}
