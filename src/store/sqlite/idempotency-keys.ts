/** Idempotency records in SQLite (see IdempotencyKeys); each call is one statement. */
import type Database from 'better-sqlite3';
import { IDEMPOTENCY_SELECT, type IdempotencyRow, idempotencyFromRow } from '../tables/idempotency-keys.js';
import type { IdempotencyClaim, IdempotencyKeys, IdempotencyRecord } from '../types.js';

export class SqliteIdempotencyKeys implements IdempotencyKeys {
  private readonly claimStmt;
  private readonly findStmt;
  private readonly completeStmt;
  private readonly releaseStmt;
  private readonly purgeStmt;
  constructor(db: Database.Database) {
    this.claimStmt = db.prepare<[number, string, string, number, number, number]>(
      `INSERT INTO idempotency_keys (account_id, idem_key, fingerprint, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id, idem_key) DO UPDATE
         SET fingerprint = excluded.fingerprint, status = NULL, response = NULL, created_at = excluded.created_at
         WHERE idempotency_keys.created_at <= ? OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at <= ?)`,
    );
    this.findStmt = db.prepare<[number, string], IdempotencyRow>(`SELECT ${IDEMPOTENCY_SELECT} FROM idempotency_keys WHERE account_id = ? AND idem_key = ?`);
    this.completeStmt = db.prepare<[number, string, number, string, number]>(
      'UPDATE idempotency_keys SET status = ?, response = ? WHERE account_id = ? AND idem_key = ? AND created_at = ? AND status IS NULL',
    );
    this.releaseStmt = db.prepare<[number, string, number]>(
      'DELETE FROM idempotency_keys WHERE account_id = ? AND idem_key = ? AND created_at = ? AND status IS NULL',
    );
    this.purgeStmt = db.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at <= ?');
  }
  async claim(c: IdempotencyClaim): Promise<boolean> {
    return this.claimStmt.run(c.accountId, c.key, c.fingerprint, c.now, c.completedBefore, c.inFlightBefore).changes === 1;
  }
  async find(accountId: number, key: string): Promise<IdempotencyRecord | undefined> {
    const row = this.findStmt.get(accountId, key);
    return row && idempotencyFromRow(row);
  }
  async complete(accountId: number, key: string, claimedAt: number, status: number, sealedResponse: string): Promise<boolean> {
    return this.completeStmt.run(status, sealedResponse, accountId, key, claimedAt).changes === 1;
  }
  async release(accountId: number, key: string, claimedAt: number): Promise<void> {
    this.releaseStmt.run(accountId, key, claimedAt);
  }
  async purge(cutoff: number): Promise<number> {
    return this.purgeStmt.run(cutoff).changes;
  }
}
