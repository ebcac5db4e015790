/** A storage zone's counters and their closing figures per day (migrations sqlite 0004, postgres 0005), as both dialects dump them. */
import { type DumpRecordOf, dumpedTable } from './dumped-table.js';

export interface StorageUsageRow {
  zone_id: string;
  account_id: number;
  files: number;
  bytes: number;
}

export interface StorageUsageDayRow {
  zone_id: string;
  /** YYYY-MM-DD. */
  day: string;
  files: number;
  bytes: number;
}

const usageFields = (r: StorageUsageRow) => ({ zoneId: r.zone_id, accountId: r.account_id, files: r.files, bytes: r.bytes });
const usageValues = (u: DumpRecordOf<'storageUsage'>) => [u.zoneId, u.accountId, u.files, u.bytes];

const USAGE_COLUMNS = ['zone_id', 'account_id', 'files', 'bytes'];

export const storageUsageDumped = dumpedTable('storageUsage', 'storage_usage', ['zone_id'], USAGE_COLUMNS, usageFields, usageValues);

const dayFields = (r: StorageUsageDayRow) => ({ zoneId: r.zone_id, day: r.day, files: r.files, bytes: r.bytes });
const dayValues = (d: DumpRecordOf<'storageUsageDay'>) => [d.zoneId, d.day, d.files, d.bytes];

const DAY_COLUMNS = ['zone_id', 'day', 'files', 'bytes'];

export const storageUsageDaysDumped = dumpedTable('storageUsageDay', 'storage_usage_daily', ['zone_id', 'day'], DAY_COLUMNS, dayFields, dayValues);
