/** Turning counts into the platform's charts: one point per day (or hour) of a period, zeros included. */
import type { UsageEntry } from '../../store/types.js';
import { HOUR_MS, DAY_MS } from '../durations.js';

export interface Period {
  from: Date;
  to: Date;
  hourly: boolean;
}

/** The period a statistics request asks for: the 30 days up to now by default. */
export function periodOf(dateFrom: string | undefined, dateTo: string | undefined, now: Date, hourly = false): Period {
  const to = dateTo ? new Date(dateTo) : now;
  const from = dateFrom ? new Date(dateFrom) : new Date(to.getTime() - 30 * DAY_MS);
  return { from, to, hourly };
}

/** `2026-11-24T00:00:00Z`: how the charts name their points. */
export const pointName = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

/** Every point of the period (start of each day or hour), oldest first. */
export function points(period: Period): Date[] {
  const step = period.hourly ? HOUR_MS : DAY_MS;
  const first = Math.floor(period.from.getTime() / step) * step;
  const out: Date[] = [];
  for (let t = first; t <= period.to.getTime() && out.length < 10_000; t += step) out.push(new Date(t));
  return out;
}

/** Sums hourly counts into the period's points. */
export function chartOf(entries: UsageEntry[], period: Period): Record<string, number> {
  const step = period.hourly ? HOUR_MS : DAY_MS;
  const chart: Record<string, number> = {};
  for (const at of points(period)) chart[pointName(at)] = 0;
  for (const e of entries) {
    const key = pointName(new Date(Math.floor((e.hour * HOUR_MS) / step) * step));
    if (key in chart) chart[key]! += e.value;
  }
  return chart;
}

/** Sums the hourly counts of `metrics` among `entries` into the period's points. */
export const metricChart = (entries: UsageEntry[], period: Period, ...metrics: string[]) =>
  chartOf(
    entries.filter((e) => metrics.includes(e.metric)),
    period,
  );

export const total = (chart: Record<string, number>) => Object.values(chart).reduce((sum, v) => sum + v, 0);
