/**
 * What the containers of each application were measured doing, for its statistics' charts: the
 * running instances (the most in a period) and the CPU they used (the mean of the load samples
 * taken in it), recorded by the supervisor at each of its measures. Kept in memory on the
 * instance that runs the containers, in two rings per application: one bucket a minute for the
 * last 24 hours, one an hour for the last 32 days (the stored timeline's span); a day is the hours
 * kept of it. About 33 KB an application (31 KB of buckets), allocated at its first record; an
 * application's rings go when it is deleted, or once nothing was recorded for it for 32 days.
 * Lost at a restart; with several instances on PostgreSQL, only the one running the containers
 * records (another that ran them before keeps what it recorded then).
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

export interface UsageBounds {
  /** Minutes kept, the newest ones. */
  minutes: number;
  /** Hours kept, the newest ones. */
  hours: number;
}

/** A day of minutes (a Minute chart holds at most 1,500 points), 32 days of hours. */
export const USAGE_BOUNDS: UsageBounds = { minutes: 24 * 60, hours: 32 * 24 };

/** What was measured in one period. */
export interface MeasuredPeriod {
  /** The most instances running at a measure. */
  instances: number;
  /** The mean of the load samples, as a fraction of the CPU limit; undefined when none was taken (replicas starting). */
  cpu: number | undefined;
}

/** The most instances a bucket holds (an application runs far fewer). */
const MAX_INSTANCES = 0xffff;

/** Fixed-size buckets of `stepMs`, indexed by period number modulo the size. */
class Ring {
  /** The period number (start / stepMs) each bucket holds; -1: empty. */
  private readonly period: Int32Array;
  private readonly instances: Uint16Array;
  private readonly cpuSum: Float32Array;
  private readonly cpuCount: Uint32Array;

  constructor(
    readonly stepMs: number,
    readonly size: number,
  ) {
    this.period = new Int32Array(size).fill(-1);
    this.instances = new Uint16Array(size);
    this.cpuSum = new Float32Array(size);
    this.cpuCount = new Uint32Array(size);
  }

  record(at: number, instances: number, cpu: number | undefined): void {
    const n = Math.floor(at / this.stepMs);
    const i = n % this.size;
    if (this.period[i] !== n) {
      this.period[i] = n;
      this.instances[i] = 0;
      this.cpuSum[i] = 0;
      this.cpuCount[i] = 0;
    }
    this.instances[i] = Math.max(this.instances[i]!, Math.min(MAX_INSTANCES, Math.max(0, Math.round(instances))));
    if (cpu !== undefined && Number.isFinite(cpu)) {
      this.cpuSum[i]! += cpu;
      this.cpuCount[i]! += 1;
    }
  }

  /** The buckets kept as of `now` (the last `size` periods) that start within from…to, folded into periods of `stepMs`. */
  fold(stepMs: number, fromMs: number, toMs: number, now: number): Map<number, MeasuredPeriod> {
    const newest = Math.floor(now / this.stepMs);
    const sums = new Map<number, { instances: number; sum: number; count: number }>();
    for (let i = 0; i < this.size; i++) {
      const n = this.period[i]!;
      if (n < 0 || n > newest || n <= newest - this.size) continue;
      const start = n * this.stepMs;
      const key = Math.floor(start / stepMs) * stepMs;
      if (key + stepMs <= fromMs || key > toMs) continue;
      const into = sums.get(key) ?? { instances: 0, sum: 0, count: 0 };
      into.instances = Math.max(into.instances, this.instances[i]!);
      into.sum += this.cpuSum[i]!;
      into.count += this.cpuCount[i]!;
      sums.set(key, into);
    }
    const periods = new Map<number, MeasuredPeriod>();
    for (const [key, { instances, sum, count }] of [...sums].sort((a, b) => a[0] - b[0])) {
      periods.set(key, { instances, cpu: count === 0 ? undefined : sum / count });
    }
    return periods;
  }
}

interface AppUsage {
  minutes: Ring;
  hours: Ring;
  last: number;
}

export class UsageHistory {
  private readonly apps = new Map<string, AppUsage>();

  constructor(private readonly bounds: UsageBounds = USAGE_BOUNDS) {}

  /** One measure of the application: the instances running, and its load sample (undefined: none taken). */
  record(appId: string, at: number, instances: number, cpu: number | undefined): void {
    let app = this.apps.get(appId);
    if (!app) {
      app = { minutes: new Ring(MINUTE_MS, this.bounds.minutes), hours: new Ring(HOUR_MS, this.bounds.hours), last: at };
      this.apps.set(appId, app);
    }
    app.minutes.record(at, instances, cpu);
    app.hours.record(at, instances, cpu);
    app.last = Math.max(app.last, at);
  }

  /**
   * What was measured in each period of `stepMs` (a minute, an hour or a day) that overlaps
   * from…to, keyed by the period's start: minutes from the minute ring, longer periods from the
   * hour ring. Periods with no record are absent.
   */
  periods(appId: string, stepMs: number, fromMs: number, toMs: number, now: number): Map<number, MeasuredPeriod> {
    const app = this.apps.get(appId);
    if (!app) return new Map();
    const ring = stepMs < HOUR_MS ? app.minutes : app.hours;
    if (stepMs % ring.stepMs !== 0) throw new Error(`periods of ${stepMs} ms are not whole buckets of ${ring.stepMs} ms`);
    return ring.fold(stepMs, fromMs, toMs, now);
  }

  forget(appId: string): void {
    this.apps.delete(appId);
  }

  /** Drops the applications not in `kept` (deleted), and those with no record within the hours kept. */
  retain(kept: ReadonlySet<string> | ReadonlyMap<string, unknown>, now: number): void {
    for (const [appId, app] of this.apps) {
      if (!kept.has(appId) || app.last <= now - this.bounds.hours * HOUR_MS) this.apps.delete(appId);
    }
  }

  /** The applications with a history (tests, and what memory it takes). */
  get size(): number {
    return this.apps.size;
  }
}
