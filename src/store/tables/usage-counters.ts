/** The planes' hourly counters (migrations sqlite 0004, postgres 0005): their rows are UsageEntry as they are. */
import type { UsageEntry } from '../types.js';
import type { DumpedTable } from './dumped-table.js';

export const usageCountersDumped: DumpedTable<'usage', UsageEntry> = {
  type: 'usage',
  table: 'usage_counters',
  order: ['subject', 'metric', 'hour'],
  columns: ['subject', 'metric', 'hour', 'value'],
  record: (r) => ({ type: 'usage', subject: r.subject, metric: r.metric, hour: r.hour, value: r.value }),
  values: (r) => [r.subject, r.metric, r.hour, r.value],
};
