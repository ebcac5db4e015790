/** The billing ledger's rows (migrations sqlite 0005, postgres 0006): the same in both dialects. */
import type { BillingRecord } from '../types.js';
import type { DumpedTable } from './dumped-table.js';

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

export const billingRecordsDumped: DumpedTable<'billingRecord', BillingRow> = {
  type: 'billingRecord',
  table: 'billing_records',
  order: ['id'],
  columns: ['id', 'account_id', 'type', 'amount', 'at', 'month', 'payer', 'details'],
  record: (r) => ({ type: 'billingRecord', ...billingFromRow(r) }),
  values: (r) => [r.id, r.accountId, r.recordType, r.amount, r.at, r.month, r.payer, r.details],
};
