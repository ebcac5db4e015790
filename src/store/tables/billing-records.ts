/** The billing ledger's rows (migrations sqlite 0005, postgres 0006): the same in both dialects. */
import type { BillingRecord } from '../types.js';
import { dumpedTable } from './dumped-table.js';

export interface BillingRow {
  id: number;
  account_id: number;
  type: number;
  amount: number;
  at: string;
  month: string | null;
  payer: string | null;
  details: string | null;
}

export const billingFromRow = (r: BillingRow): BillingRecord => ({
  id: r.id,
  accountId: r.account_id,
  recordType: r.type,
  amount: r.amount,
  at: r.at,
  month: r.month,
  payer: r.payer,
  details: r.details,
});

const BILLING_COLUMNS = ['id', 'account_id', 'type', 'amount', 'at', 'month', 'payer', 'details'];
const billingValues = (b: BillingRecord) => [b.id, b.accountId, b.recordType, b.amount, b.at, b.month, b.payer, b.details];

export const billingRecordsDumped = dumpedTable('billingRecord', 'billing_records', ['id'], BILLING_COLUMNS, billingFromRow, billingValues);
