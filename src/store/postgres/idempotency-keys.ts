/** Idempotency records in PostgreSQL (see IdempotencyKeys); each call is one statement. */
import { IDEMPOTENCY_SELECT, type IdempotencyRow, idempotencyFromRow } from '../tables/idempotency-keys.js';
import type { IdempotencyClaim, IdempotencyKeys, IdempotencyRecord } from '../types.js';
import type { Queryable } from './queryable.js';

export class PgIdempotencyKeys implements IdempotencyKeys {
  constructor(private readonly db: Queryable) {}
  async claim(c: IdempotencyClaim): Promise<boolean> {
    // Two instances claiming one key at once: the second waits for the first row, then sees it live.
    const res = await this.db.query(
      `INSERT INTO idempotency_keys (account_id, idem_key, fingerprint, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, idem_key) DO UPDATE
         SET fingerprint = excluded.fingerprint, status = NULL, response = NULL, created_at = excluded.created_at
         WHERE idempotency_keys.created_at <= $5 OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at <= $6)`,
      [c.accountId, c.key, c.fingerprint, c.now, c.completedBefore, c.inFlightBefore],
    );
    return res.rowCount === 1;
  }
  async find(accountId: number, key: string): Promise<IdempotencyRecord | undefined> {
    const { rows } = await this.db.query<IdempotencyRow>(`SELECT ${IDEMPOTENCY_SELECT} FROM idempotency_keys WHERE account_id = $1 AND idem_key = $2`, [
      accountId,
      key,
    ]);
    const row = rows[0];
    return row && idempotencyFromRow(row);
  }
  async complete(accountId: number, key: string, claimedAt: number, status: number, sealedResponse: string): Promise<boolean> {
    const res = await this.db.query(
      'UPDATE idempotency_keys SET status = $1, response = $2 WHERE account_id = $3 AND idem_key = $4 AND created_at = $5 AND status IS NULL',
      [status, sealedResponse, accountId, key, claimedAt],
    );
    return res.rowCount === 1;
  }
  async release(accountId: number, key: string, claimedAt: number): Promise<void> {
    await this.db.query('DELETE FROM idempotency_keys WHERE account_id = $1 AND idem_key = $2 AND created_at = $3 AND status IS NULL', [
      accountId,
      key,
      claimedAt,
    ]);
  }
  async purge(cutoff: number): Promise<number> {
    return (await this.db.query('DELETE FROM idempotency_keys WHERE created_at <= $1', [cutoff])).rowCount ?? 0;
  }
}
