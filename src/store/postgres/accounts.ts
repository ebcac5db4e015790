/** Accounts on PostgreSQL (migration 0001). */
import { type AccountRow, accountFromRow } from '../tables/accounts.js';
import type { Account, Accounts } from '../types.js';
import { type Queryable, run } from './queryable.js';

export class PgAccounts implements Accounts {
  constructor(private readonly db: Queryable) {}
  async create(name: string, balance: number, now: Date): Promise<Account> {
    const [row] = await run<AccountRow>(this.db, 'INSERT INTO accounts (name, balance, created_at) VALUES ($1, $2, $3) RETURNING *', [
      name,
      balance,
      now.toISOString(),
    ]);
    return accountFromRow(row!);
  }
  async get(id: number): Promise<Account | undefined> {
    const [row] = await run<AccountRow>(this.db, 'SELECT * FROM accounts WHERE id = $1', [id]);
    return row && accountFromRow(row);
  }
  async list(): Promise<Account[]> {
    return (await run<AccountRow>(this.db, 'SELECT * FROM accounts ORDER BY id')).map(accountFromRow);
  }
  async count(): Promise<number> {
    return (await run<{ n: number }>(this.db, 'SELECT count(*) AS n FROM accounts'))[0]!.n;
  }
  async setBalance(id: number, balance: number): Promise<boolean> {
    return (await this.db.query('UPDATE accounts SET balance = $1 WHERE id = $2', [balance, id])).rowCount === 1;
  }
  /** The foreign keys cascade: keys, documents, the ledger and the audit log go with the account. */
  async remove(id: number): Promise<boolean> {
    return (await this.db.query('DELETE FROM accounts WHERE id = $1', [id])).rowCount === 1;
  }
}
