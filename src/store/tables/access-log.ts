/** The access log's rows as both stores read them (migrations sqlite 0008/0010, postgres 0009/0011). */
import type { AccessLogEntry } from '../types.js';
import { type DumpRecordOf, dumpedTable } from './dumped-table.js';

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

const ACCESS_LOG_COLUMNS = ['id', 'account_id', 'pull_zone_id', 'at', 'lines', 'entry'];
// Dumps from before chunked logs carry one line per entry and no count.
const accessLogValues = (e: DumpRecordOf<'accessLogEntry'>) => [e.id, e.accountId, e.pullZoneId, e.at, e.lines ?? 1, e.entry];

export const accessLogDumped = dumpedTable('accessLogEntry', 'access_log', ['id'], ACCESS_LOG_COLUMNS, accessLogFromRow, accessLogValues);
