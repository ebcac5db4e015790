/** The origin errors' rows as both stores read them (migrations sqlite 0014, postgres 0016). */
import type { OriginErrorEntry } from '../types.js';
import { type DumpRecordOf, dumpedTable } from './dumped-table.js';

export const DAY_MS = 86_400_000;

export interface OriginErrorRow {
  id: number | string;
  account_id: number | string;
  pull_zone_id: number | string;
  at: number | string;
  log_id: string;
  code: string;
  status: number;
  message: string;
  url: string;
  labels: string;
}

export const originErrorFromRow = (r: OriginErrorRow): OriginErrorEntry => ({
  accountId: Number(r.account_id),
  pullZoneId: Number(r.pull_zone_id),
  at: Number(r.at),
  logId: r.log_id,
  code: r.code,
  status: r.status,
  message: r.message,
  url: r.url,
  labels: r.labels,
});

export const ORIGIN_ERROR_COLUMNS = 'account_id, pull_zone_id, at, log_id, code, status, message, url, labels';

/** An entry's row values in ORIGIN_ERROR_COLUMNS' order, after its `day`. */
export const originErrorValues = (e: OriginErrorEntry) => [
  Math.floor(e.at / DAY_MS),
  e.accountId,
  e.pullZoneId,
  e.at,
  e.logId,
  e.code,
  e.status,
  e.message,
  e.url,
  e.labels,
];

/** Deletes a zone-day's entries but its newest `keep`. Numbered parameters: 1 the zone, 2 the day, 3 `keep`. */
export const trimDayStatement = (param: (n: 1 | 2 | 3) => string) =>
  `DELETE FROM origin_errors WHERE pull_zone_id = ${param(1)} AND day = ${param(2)} AND id < (
     SELECT min(id) FROM (
       SELECT id FROM origin_errors WHERE pull_zone_id = ${param(1)} AND day = ${param(2)} ORDER BY id DESC LIMIT ${param(3)}
     ) AS kept)`;

const DUMPED_COLUMNS = ['id', 'day', ...ORIGIN_ERROR_COLUMNS.split(', ')];
const dumpedValues = (e: DumpRecordOf<'originError'>) => [e.id, ...originErrorValues(e)];
const dumpedFields = (r: OriginErrorRow) => ({ id: Number(r.id), ...originErrorFromRow(r) });

export const originErrorsDumped = dumpedTable('originError', 'origin_errors', ['id'], DUMPED_COLUMNS, dumpedFields, dumpedValues);
