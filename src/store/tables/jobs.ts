/** The jobs table (migration 0002): its rows as both dialects read them. */
import type { Job } from '../types.js';
import type { DumpedTable } from './dumped-table.js';

export interface JobRow {
  id: number;
  kind: string;
  /** JSON. */
  payload: string;
  run_at: number;
  attempts: number;
}

export const jobFromRow = (r: JobRow): Job => ({ id: r.id, kind: r.kind, payload: JSON.parse(r.payload) as unknown, runAt: r.run_at, attempts: r.attempts });

/** A dump keeps a job's payload as stored, and not its id or lease: a loaded store runs it afresh. */
export const jobsDumped: DumpedTable<'job', JobRow> = {
  type: 'job',
  table: 'jobs',
  order: ['id'],
  columns: ['kind', 'payload', 'run_at', 'attempts'],
  record: (r) => ({ type: 'job', kind: r.kind, payload: r.payload, runAt: r.run_at, attempts: r.attempts }),
  values: (r) => [r.kind, r.payload, r.runAt, r.attempts],
};
