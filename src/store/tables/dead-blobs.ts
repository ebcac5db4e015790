/** Blobs no file points at any more, until the sweep removes them (migrations sqlite 0004, postgres 0005), as both dialects dump them. */
import { type DumpRecordOf, dumpedTable } from './dumped-table.js';

export interface DeadBlobRow {
  key: string;
  /** Epoch milliseconds. */
  dead_at: number;
}

const deadBlobFields = (r: DeadBlobRow) => ({ key: r.key, deadAt: r.dead_at });
const deadBlobValues = (b: DumpRecordOf<'deadBlob'>) => [b.key, b.deadAt];

export const deadBlobsDumped = dumpedTable('deadBlob', 'dead_blobs', ['key'], ['key', 'dead_at'], deadBlobFields, deadBlobValues);
