/** A storage zone's counters and their closing figures per day (migrations sqlite 0004, postgres 0005), as both dialects dump them. */
import type { DumpedTable } from './dumped-table.js';

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

export const storageUsageDumped: DumpedTable<'storageUsage', StorageUsageRow> = {
  type: 'storageUsage',
  table: 'storage_usage',
  order: ['zone_id'],
  columns: ['zone_id', 'account_id', 'files', 'bytes'],
  record: (r) => ({ type: 'storageUsage', zoneId: r.zone_id, accountId: r.account_id, files: r.files, bytes: r.bytes }),
  values: (r) => [r.zoneId, r.accountId, r.files, r.bytes],
};

export const storageUsageDaysDumped: DumpedTable<'storageUsageDay', StorageUsageDayRow> = {
  type: 'storageUsageDay',
  table: 'storage_usage_daily',
  order: ['zone_id', 'day'],
  columns: ['zone_id', 'day', 'files', 'bytes'],
  record: (r) => ({ type: 'storageUsageDay', zoneId: r.zone_id, day: r.day, files: r.files, bytes: r.bytes }),
  values: (r) => [r.zoneId, r.day, r.files, r.bytes],
};
