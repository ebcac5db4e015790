/** The planes' hourly counters (migrations sqlite 0004, postgres 0005): their rows are UsageEntry as they are. */
import type { UsageEntry } from '../types.js';
import { dumpedTable } from './dumped-table.js';

const COUNTER_COLUMNS = ['subject', 'metric', 'hour', 'value'];
const counterFields = (r: UsageEntry) => ({ subject: r.subject, metric: r.metric, hour: r.hour, value: r.value });
const counterValues = (c: UsageEntry) => [c.subject, c.metric, c.hour, c.value];

export const usageCountersDumped = dumpedTable('usage', 'usage_counters', ['subject', 'metric', 'hour'], COUNTER_COLUMNS, counterFields, counterValues);
