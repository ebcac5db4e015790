/** Background jobs on SQLite (migration 0002). */
import type Database from 'better-sqlite3';
import { type JobRow, jobFromRow } from '../tables/jobs.js';
import type { Job, JobLane, Jobs } from '../types.js';
import { BOUND_LIMIT } from './limits.js';

export class SqliteJobs implements Jobs {
  private readonly insertStmt;
  private readonly claimStmt;
  private readonly completeStmt;
  private readonly retryStmt;
  private readonly renewStmt;
  private readonly countStmt;
  private readonly byKindStmt;
  private readonly deleteStmt;
  constructor(db: Database.Database) {
    this.insertStmt = db.prepare<[string, string, number]>('INSERT INTO jobs (kind, payload, run_at) VALUES (?, ?, ?)');
    this.claimStmt = db.prepare<[string, number, number, number, string, number, number], JobRow>(
      `UPDATE jobs SET locked_by = ?, locked_until = ?, attempts = attempts + 1
       WHERE id IN (SELECT id FROM jobs WHERE run_at <= ? AND (locked_until IS NULL OR locked_until < ?)
                    AND (kind IN (SELECT value FROM json_each(?))) = ?
                    ORDER BY run_at, id ${BOUND_LIMIT})
       RETURNING id, kind, payload, run_at, attempts`,
    );
    this.completeStmt = db.prepare<[number, string]>('DELETE FROM jobs WHERE id = ? AND locked_by = ?');
    this.retryStmt = db.prepare<[number, string, number, string]>(
      'UPDATE jobs SET run_at = ?, last_error = ?, locked_by = NULL, locked_until = NULL WHERE id = ? AND locked_by = ?',
    );
    this.renewStmt = db.prepare<[number, number, string]>('UPDATE jobs SET locked_until = ? WHERE id = ? AND locked_by = ?');
    this.countStmt = db.prepare<{ now: number }, { pending: number; leased: number }>(
      'SELECT count(*) - count(CASE WHEN locked_until >= @now THEN 1 END) AS pending, count(CASE WHEN locked_until >= @now THEN 1 END) AS leased FROM jobs',
    );
    this.byKindStmt = db.prepare<[string], { id: number; payload: string }>('SELECT id, payload FROM jobs WHERE kind = ?');
    this.deleteStmt = db.prepare<[number]>('DELETE FROM jobs WHERE id = ?');
  }
  async enqueue(kind: string, payload: unknown, runAt: number): Promise<number> {
    return Number(this.insertStmt.run(kind, JSON.stringify(payload), runAt).lastInsertRowid);
  }
  async claimDue(now: number, limit: number, worker: string, leaseUntil: number, lane: JobLane = { except: [] }): Promise<Job[]> {
    const [kinds, listed] = 'only' in lane ? [lane.only, 1] : [lane.except, 0];
    return this.claimStmt.all(worker, leaseUntil, now, now, JSON.stringify(kinds), listed, limit).map(jobFromRow);
  }
  async complete(id: number, worker: string): Promise<void> {
    this.completeStmt.run(id, worker);
  }
  async renew(id: number, worker: string, leaseUntil: number): Promise<boolean> {
    return this.renewStmt.run(leaseUntil, id, worker).changes === 1;
  }
  async retry(id: number, worker: string, runAt: number, error: string): Promise<void> {
    this.retryStmt.run(runAt, error.slice(0, 1000), id, worker);
  }
  async count(now: number): Promise<{ pending: number; leased: number }> {
    return this.countStmt.get({ now })!;
  }
  async cancel(kind: string, matches: (payload: unknown) => boolean): Promise<number> {
    let n = 0;
    for (const row of this.byKindStmt.all(kind)) {
      if (matches(JSON.parse(row.payload))) n += this.deleteStmt.run(row.id).changes;
    }
    return n;
  }
}
