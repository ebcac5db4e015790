/** The accounts table (migration 0001): its rows as both dialects read them. */
import type { Account } from '../types.js';
import { dumpedTable } from './dumped-table.js';

export interface AccountRow {
  id: number;
  name: string;
  balance: number;
  created_at: string;
}

export const accountFromRow = (r: AccountRow): Account => ({ id: r.id, name: r.name, balance: r.balance, createdAt: r.created_at });

const ACCOUNT_COLUMNS = ['id', 'name', 'balance', 'created_at'];
const accountValues = (a: Account) => [a.id, a.name, a.balance, a.createdAt];

export const accountsDumped = dumpedTable('account', 'accounts', ['id'], ACCOUNT_COLUMNS, accountFromRow, accountValues);
