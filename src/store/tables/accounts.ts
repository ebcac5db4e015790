/** The accounts table (migration 0001): its rows as both dialects read them. */
import type { Account } from '../types.js';
import type { DumpedTable } from './dumped-table.js';

export interface AccountRow {
  id: number;
  name: string;
  balance: number;
  created_at: string;
}

export const accountFromRow = (r: AccountRow): Account => ({ id: r.id, name: r.name, balance: r.balance, createdAt: r.created_at });

export const accountsDumped: DumpedTable<'account', AccountRow> = {
  type: 'account',
  table: 'accounts',
  order: ['id'],
  columns: ['id', 'name', 'balance', 'created_at'],
  record: (r) => ({ type: 'account', ...accountFromRow(r) }),
  values: (r) => [r.id, r.name, r.balance, r.createdAt],
};
