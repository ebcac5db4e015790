/** Background jobs, stored so that none is lost and none runs twice at once. */

export interface Job {
  id: number;
  kind: string;
  payload: unknown;
  /** Epoch milliseconds. */
  runAt: number;
  attempts: number;
}

/** Which kinds a runner takes: those listed (`only`), or all but those (`except`). */
export type JobLane = { only: readonly string[] } | { except: readonly string[] };

export interface Jobs {
  enqueue(kind: string, payload: unknown, runAt: number): Promise<number>;
  /**
   * Leases up to `limit` due jobs to `worker` until `leaseUntil`; a job whose lease ran out (its
   * worker died) becomes claimable again, so no job is lost and none runs twice at the same time.
   */
  claimDue(now: number, limit: number, worker: string, leaseUntil: number, lane?: JobLane): Promise<Job[]>;
  /** Removes a finished job; only its lease holder may. */
  complete(id: number, worker: string): Promise<void>;
  /** Extends the lease of a job still running; false when `worker` no longer holds it (it ran out and another took it). */
  renew(id: number, worker: string, leaseUntil: number): Promise<boolean>;
  /** Puts a failed job back for a later attempt. */
  retry(id: number, worker: string, runAt: number, error: string): Promise<void>;
  count(now: number): Promise<{ pending: number; leased: number }>;
  /** Every job of a kind whose payload matches, for tests and cancellation. */
  cancel(kind: string, matches: (payload: unknown) => boolean): Promise<number>;
}
