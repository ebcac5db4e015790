/** Answers remembered for `Idempotency-Key` retries. */

export interface IdempotencyRecord {
  fingerprint: string;
  /** Null while the first request with the key is still in flight. */
  status: number | null;
  /** The first response's body, sealed: a create's response can carry a credential. */
  sealedResponse: string | null;
  /** Epoch milliseconds of the claim; it also identifies the claim to complete or release. */
  createdAt: number;
}

export interface IdempotencyClaim {
  accountId: number;
  key: string;
  fingerprint: string;
  now: number;
  /** Records created at or before these instants no longer count: completed ones, and ones in flight. */
  completedBefore: number;
  inFlightBefore: number;
}

/**
 * Responses remembered for `Idempotency-Key` retries. Not part of dumps: they are a short-lived
 * cache of answers, not resources.
 */
export interface IdempotencyKeys {
  /** Takes the key for a new request; false when a record that still counts holds it. */
  claim(claim: IdempotencyClaim): Promise<boolean>;
  find(accountId: number, key: string): Promise<IdempotencyRecord | undefined>;
  /** Records the response of the claim made at `claimedAt`; false if that claim is gone. */
  complete(accountId: number, key: string, claimedAt: number, status: number, sealedResponse: string): Promise<boolean>;
  /** Gives up the claim made at `claimedAt` (the request failed), so a retry runs afresh. */
  release(accountId: number, key: string, claimedAt: number): Promise<void>;
  /** Deletes the records created at or before `cutoff`. */
  purge(cutoff: number): Promise<number>;
}
