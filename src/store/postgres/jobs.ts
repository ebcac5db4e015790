/** Background jobs on PostgreSQL (migration 0002). */
import { type JobRow, jobFromRow } from '../tables/jobs.js';
import type { Job, JobLane, Jobs } from '../types.js';
import { type Queryable, run } from './queryable.js';

export class PgJobs implements Jobs {
  constructor(private readonly db: Queryable) {}
  async enqueue(kind: string, payload: unknown, runAt: number): Promise<number> {
    return (
      await run<{ id: number }>(this.db, 'INSERT INTO jobs (kind, payload, run_at) VALUES ($1, $2, $3) RETURNING id', [kind, JSON.stringify(payload), runAt])
    )[0]!.id;
  }
  async claimDue(now: number, limit: number, worker: string, leaseUntil: number, lane: JobLane = { except: [] }): Promise<Job[]> {
    const [kinds, listed] = 'only' in lane ? [lane.only, true] : [lane.except, false];
    // SKIP LOCKED: instances polling at the same moment take disjoint jobs instead of queueing. The
    // choice is a MATERIALIZED CTE, run exactly once: as `WHERE id IN (subquery)` the planner may
    // run the subquery again for each row it joins, each run skipping the rows the UPDATE already
    // changed, and so lease more jobs than the limit (the likely cause of a CI run in which a claim
    // of 1 left none of 2 jobs pending).
    const rows = await run<JobRow>(
      this.db,
      `WITH chosen AS MATERIALIZED (
         SELECT id FROM jobs WHERE run_at <= $3 AND (locked_until IS NULL OR locked_until < $3)
           AND (kind = ANY($5::text[])) = $6
         ORDER BY run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
       UPDATE jobs SET locked_by = $1, locked_until = $2, attempts = attempts + 1
       FROM chosen WHERE jobs.id = chosen.id
       RETURNING jobs.id, jobs.kind, jobs.payload, jobs.run_at, jobs.attempts`,
      [worker, leaseUntil, now, limit, kinds, listed],
    );
    return rows.sort((a, b) => a.run_at - b.run_at || a.id - b.id).map(jobFromRow);
  }
  async complete(id: number, worker: string): Promise<void> {
    await this.db.query('DELETE FROM jobs WHERE id = $1 AND locked_by = $2', [id, worker]);
  }
  async renew(id: number, worker: string, leaseUntil: number): Promise<boolean> {
    const result = await this.db.query('UPDATE jobs SET locked_until = $1 WHERE id = $2 AND locked_by = $3', [leaseUntil, id, worker]);
    return result.rowCount === 1;
  }
  async retry(id: number, worker: string, runAt: number, error: string): Promise<void> {
    await this.db.query('UPDATE jobs SET run_at = $1, last_error = $2, locked_by = NULL, locked_until = NULL WHERE id = $3 AND locked_by = $4', [
      runAt,
      error.slice(0, 1000),
      id,
      worker,
    ]);
  }
  async count(now: number): Promise<{ pending: number; leased: number }> {
    const [row] = await run<{ pending: number; leased: number }>(
      this.db,
      'SELECT count(*) FILTER (WHERE locked_until IS NULL OR locked_until < $1) AS pending, count(*) FILTER (WHERE locked_until >= $1) AS leased FROM jobs',
      [now],
    );
    return row!;
  }
  async cancel(kind: string, matches: (payload: unknown) => boolean): Promise<number> {
    let n = 0;
    for (const row of await run<{ id: number; payload: string }>(this.db, 'SELECT id, payload FROM jobs WHERE kind = $1', [kind])) {
      if (matches(JSON.parse(row.payload))) n += (await this.db.query('DELETE FROM jobs WHERE id = $1', [row.id])).rowCount ?? 0;
    }
    return n;
  }
}
