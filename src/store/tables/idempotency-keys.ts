/** Answers remembered for `Idempotency-Key` retries (migration 0003), as both dialects read them. Not dumped: a short-lived cache. */
import type { IdempotencyRecord } from '../types.js';

export interface IdempotencyRow {
  fingerprint: string;
  status: number | null;
  /** Sealed. */
  response: string | null;
  created_at: number;
}

export const IDEMPOTENCY_SELECT = 'fingerprint, status, response, created_at';

export const idempotencyFromRow = (r: IdempotencyRow): IdempotencyRecord => ({
  fingerprint: r.fingerprint,
  status: r.status,
  sealedResponse: r.response,
  createdAt: r.created_at,
});
