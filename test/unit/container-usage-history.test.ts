/**
 * The in-memory history of what an application's containers ran (domain/containers/runtime/
 * usage-history.ts): measures bucketed by minute and by hour (the most instances, the mean CPU of
 * the samples taken), folded into minute, hour and day periods within from…to, bounded to the
 * newest minutes and hours, and dropped with the application or once it has gone unmeasured for
 * the hours kept.
 */
import { describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS, USAGE_BOUNDS, UsageHistory } from '../../src/domain/containers/runtime/usage-history.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (iso: string) => Date.parse(iso);
const plain = (periods: Map<number, { instances: number; cpu: number | undefined }>) =>
  Object.fromEntries(
    [...periods].map(([start, p]) => [
      new Date(start).toISOString(),
      { instances: p.instances, cpu: p.cpu === undefined ? undefined : Math.round(p.cpu * 1000) / 1000 },
    ]),
  );

describe('UsageHistory', () => {
  it('keeps per minute the most instances and the mean of the CPU samples; a measure without a sample counts its instances only', () => {
    const h = new UsageHistory();
    h.record('a', at('2026-01-01T00:00:05Z'), 1, 0.2);
    h.record('a', at('2026-01-01T00:00:35Z'), 3, 0.6);
    h.record('a', at('2026-01-01T00:00:55Z'), 2, undefined);
    h.record('a', at('2026-01-01T00:02:00Z'), 2, undefined);
    h.record('b', at('2026-01-01T00:01:00Z'), 9, 0.9);
    const now = at('2026-01-01T00:03:00Z');
    expect(plain(h.periods('a', MINUTE_MS, T0, now, now))).toEqual({
      '2026-01-01T00:00:00.000Z': { instances: 3, cpu: 0.4 },
      // 00:01 was not measured: absent.
      '2026-01-01T00:02:00.000Z': { instances: 2, cpu: undefined },
    });
    expect(h.periods('nobody', MINUTE_MS, T0, now, now).size).toBe(0);
  });

  it('folds hours from the hour buckets and days from the hours, the mean weighted by samples', () => {
    const h = new UsageHistory();
    // Day one: 00:xx two samples at 0.1 with 1 instance, 05:xx one at 0.7 with 4; day two: 3 at 0.5.
    h.record('a', at('2026-01-01T00:10:00Z'), 1, 0.1);
    h.record('a', at('2026-01-01T00:50:00Z'), 1, 0.1);
    h.record('a', at('2026-01-01T05:30:00Z'), 4, 0.7);
    h.record('a', at('2026-01-02T12:00:00Z'), 3, 0.5);
    const now = at('2026-01-02T13:00:00Z');
    expect(plain(h.periods('a', HOUR_MS, T0, now, now))).toEqual({
      '2026-01-01T00:00:00.000Z': { instances: 1, cpu: 0.1 },
      '2026-01-01T05:00:00.000Z': { instances: 4, cpu: 0.7 },
      '2026-01-02T12:00:00.000Z': { instances: 3, cpu: 0.5 },
    });
    expect(plain(h.periods('a', DAY, T0, now, now))).toEqual({
      '2026-01-01T00:00:00.000Z': { instances: 4, cpu: 0.3 },
      '2026-01-02T00:00:00.000Z': { instances: 3, cpu: 0.5 },
    });
  });

  it('answers the periods that overlap from…to only, keyed by their start', () => {
    const h = new UsageHistory();
    for (let m = 0; m < 10; m++) h.record('a', T0 + m * MINUTE_MS + 1000, m, 0.1);
    const now = T0 + 10 * MINUTE_MS;
    const minutes = h.periods('a', MINUTE_MS, T0 + 3 * MINUTE_MS, T0 + 5 * MINUTE_MS, now);
    expect([...minutes.keys()]).toEqual([3, 4, 5].map((m) => T0 + m * MINUTE_MS));
    // A day that began before `from` still overlaps it.
    expect([...h.periods('a', DAY, T0 + HOUR_MS / 2, now, now).keys()]).toEqual([T0]);
  });

  it('keeps the newest minutes and hours only: older minutes are gone, their hours stay until they too are old', () => {
    const h = new UsageHistory({ minutes: 3, hours: 2 });
    for (let m = 0; m < 70; m++) h.record('a', T0 + m * MINUTE_MS, 1 + (m % 5), 0.5);
    const now = T0 + 69 * MINUTE_MS;
    // Minutes 67, 68, 69 of the 70 recorded.
    expect([...h.periods('a', MINUTE_MS, T0, now, now).keys()]).toEqual([67, 68, 69].map((m) => T0 + m * MINUTE_MS));
    expect(plain(h.periods('a', HOUR_MS, T0, now, now))).toEqual({
      '2026-01-01T00:00:00.000Z': { instances: 5, cpu: 0.5 },
      '2026-01-01T01:00:00.000Z': { instances: 5, cpu: 0.5 },
    });
    // Three hours on with no measure, the minutes and the first hour have aged out as of then.
    const later = T0 + 2 * HOUR_MS + 30 * MINUTE_MS;
    expect(h.periods('a', MINUTE_MS, T0, later, later).size).toBe(0);
    expect([...h.periods('a', HOUR_MS, T0, later, later).keys()]).toEqual([T0 + HOUR_MS]);
    // A bucket reused by a newer period starts afresh.
    h.record('a', T0 + 3 * HOUR_MS, 1, 0.1);
    const then = T0 + 3 * HOUR_MS;
    expect(plain(h.periods('a', HOUR_MS, T0, then, then))).toEqual({ '2026-01-01T03:00:00.000Z': { instances: 1, cpu: 0.1 } });
  });

  it('drops deleted applications, and those not measured for the hours kept', () => {
    const h = new UsageHistory();
    h.record('kept', T0, 1, 0.1);
    h.record('deleted', T0, 1, 0.1);
    h.record('idle', T0 - USAGE_BOUNDS.hours * HOUR_MS, 1, 0.1);
    h.retain(new Set(['kept', 'idle']), T0);
    expect(h.size).toBe(1);
    expect(h.periods('kept', HOUR_MS, T0, T0, T0).size).toBe(1);
    h.forget('kept');
    expect(h.size).toBe(0);
  });

  it('refuses periods that are not whole buckets', () => {
    const h = new UsageHistory();
    h.record('a', T0, 1, 0.1);
    expect(() => h.periods('a', 90 * MINUTE_MS, T0, T0, T0)).toThrow(/not whole buckets/);
  });
});
