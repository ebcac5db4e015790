/** Accounts on SQLite (migration 0001). */
import type Database from 'better-sqlite3';
import { type AccountRow, accountFromRow } from '../tables/accounts.js';
import type { Account, Accounts } from '../types.js';

export class SqliteAccounts implements Accounts {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly listStmt;
  private readonly countStmt;
  private readonly balanceStmt;
  private readonly removeStmt;
  constructor(db: Database.Database) {
    this.insertStmt = db.prepare<[string, number, string], AccountRow>('INSERT INTO accounts (name, balance, created_at) VALUES (?, ?, ?) RETURNING *');
    this.getStmt = db.prepare<[number], AccountRow>('SELECT * FROM accounts WHERE id = ?');
    this.listStmt = db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY id');
    this.countStmt = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM accounts');
    this.balanceStmt = db.prepare<[number, number]>('UPDATE accounts SET balance = ? WHERE id = ?');
    // The foreign keys cascade: keys, documents, the ledger and the audit log go with the account.
    this.removeStmt = db.prepare<[number]>('DELETE FROM accounts WHERE id = ?');
  }
  async create(name: string, balance: number, now: Date): Promise<Account> {
    return accountFromRow(this.insertStmt.get(name, balance, now.toISOString())!);
  }
  async get(id: number): Promise<Account | undefined> {
    const row = this.getStmt.get(id);
    return row && accountFromRow(row);
  }
  async list(): Promise<Account[]> {
    return this.listStmt.all().map(accountFromRow);
  }
  async count(): Promise<number> {
    return this.countStmt.get()!.n;
  }
  async setBalance(id: number, balance: number): Promise<boolean> {
    return this.balanceStmt.run(balance, id).changes === 1;
  }
  async remove(id: number): Promise<boolean> {
    return this.removeStmt.run(id).changes === 1;
  }
}
