/** Hourly usage counters of the planes. */
import type { ResourceKind } from './resources.js';

/** Counters the planes keep per hour (bytes served, requests, queries), added to as they happen. */
export interface UsageCounters {
  add(entries: UsageEntry[]): Promise<void>;
  /** Sums per hour of `metric` for `subject`, from `fromHour` to `toHour` inclusive (epoch hours). */
  series(subject: string, metrics: string[], fromHour: number, toHour: number): Promise<UsageEntry[]>;
  /**
   * For every resource of `kind` the account holds (subject `kind:id`), the sum of each metric from
   * `fromHour` to `toHour`; resources without any are left out.
   */
  accountTotals(kind: ResourceKind, accountId: number, metrics: string[], fromHour: number, toHour: number): Promise<ResourceTotal[]>;
  /** Removes every counter of these subjects, all hours and metrics (the figures of a deleted video). */
  remove(subjects: string[]): Promise<void>;
}

export interface ResourceTotal {
  id: string;
  metric: string;
  value: number;
}

export interface UsageEntry {
  /** What is counted: `storageZone:12`, `pullZone:7`, `dnsZone:3`. */
  subject: string;
  metric: string;
  /** Epoch hour (ms / 3,600,000, floored). */
  hour: number;
  value: number;
}
