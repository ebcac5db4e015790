/** The jobs table (migration 0002): its rows as both dialects read them. */
import type { Job } from '../types.js';
import { type DumpRecordOf, dumpedTable } from './dumped-table.js';

export interface JobRow {
  id: number;
  kind: string;
  /** JSON. */
  payload: string;
  run_at: number;
  attempts: number;
}

export const jobFromRow = (r: JobRow): Job => ({ id: r.id, kind: r.kind, payload: JSON.parse(r.payload) as unknown, runAt: r.run_at, attempts: r.attempts });

/** A job as a dump holds it: its payload as stored, without its id or lease (the loading store numbers it anew, unleased). */
const jobDumpFields = (r: JobRow) => ({ kind: r.kind, payload: r.payload, runAt: r.run_at, attempts: r.attempts });
const jobValues = (j: DumpRecordOf<'job'>) => [j.kind, j.payload, j.runAt, j.attempts];

export const jobsDumped = dumpedTable('job', 'jobs', ['id'], ['kind', 'payload', 'run_at', 'attempts'], jobDumpFields, jobValues);
