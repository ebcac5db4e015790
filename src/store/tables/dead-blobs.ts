/** Blobs no file points at any more, until the sweep removes them (migrations sqlite 0004, postgres 0005), as both dialects dump them. */
import type { DumpedTable } from './dumped-table.js';

export interface DeadBlobRow {
  key: string;
  /** Epoch milliseconds. */
  dead_at: number;
}

export const deadBlobsDumped: DumpedTable<'deadBlob', DeadBlobRow> = {
  type: 'deadBlob',
  table: 'dead_blobs',
  order: ['key'],
  columns: ['key', 'dead_at'],
  record: (r) => ({ type: 'deadBlob', key: r.key, deadAt: r.dead_at }),
  values: (r) => [r.key, r.deadAt],
};
