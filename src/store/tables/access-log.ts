/** The access log's rows as both stores read them (migrations sqlite 0008/0010, postgres 0009/0011). */
import type { AccessLogEntry } from '../types.js';
import type { DumpedTable } from './dumped-table.js';

export interface AccessLogRow {
  id: number;
  account_id: number;
  pull_zone_id: number;
  at: number;
  lines: number;
  entry: string;
}

export const accessLogFromRow = (r: AccessLogRow): AccessLogEntry => ({
  id: r.id,
  accountId: r.account_id,
  pullZoneId: r.pull_zone_id,
  at: r.at,
  lines: r.lines,
  entry: r.entry,
});

/**
 * Deletes a zone's chunks older than the oldest one holding any of its newest `keep` lines
 * (`newer`: the lines of the chunks after it). Numbered parameters: 1 the zone, 2 `keep`.
 */
export const trimStatement = (param: (n: 1 | 2) => string) =>
  `DELETE FROM access_log WHERE pull_zone_id = ${param(1)} AND id < (
     SELECT min(id) FROM (
       SELECT id, SUM(lines) OVER (ORDER BY id DESC) - lines AS newer FROM access_log WHERE pull_zone_id = ${param(1)}
     ) AS chunks WHERE newer < ${param(2)})`;

export const accessLogDumped: DumpedTable<'accessLogEntry', AccessLogRow> = {
  type: 'accessLogEntry',
  table: 'access_log',
  order: ['id'],
  columns: ['id', 'account_id', 'pull_zone_id', 'at', 'lines', 'entry'],
  record: (r) => ({ type: 'accessLogEntry', ...accessLogFromRow(r) }),
  // Dumps from before chunked logs carry one line per entry and no count.
  values: (r) => [r.id, r.accountId, r.pullZoneId, r.at, r.lines ?? 1, r.entry],
};
