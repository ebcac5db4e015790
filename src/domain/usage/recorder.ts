/**
 * Counts what the planes serve (bytes, requests, queries) per subject, metric and hour. Counting
 * happens on every request, so it only adds to memory; a flush every second writes the sums in one
 * transaction. Reads add what is not flushed yet, so figures are exact at once on this instance
 * (and within a second on others). A crash loses at most the last second of counts.
 */
import type { ResourceKind, ResourceTotal, Store, UsageEntry } from '../../store/types.js';
import { BoundedMap } from '../bounded-map.js';
import type { Clock } from '../principal.js';
import { HOUR_MS } from '../durations.js';

const FLUSH_MS = 1000;

export const hourOf = (at: Date) => Math.floor(at.getTime() / HOUR_MS);

export class UsageRecorder {
  private pending = new Map<string, UsageEntry>();
  /** Moves whenever `pending` is handed to a flush: a counter's entry from before is not pending any more. */
  private epoch = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Flushes and reads take turns (see series). */
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Starts flushing every second (the server does; tests flush by hand). */
  start(): void {
    this.timer ??= setInterval(() => void this.flush().catch(() => {}), FLUSH_MS);
    this.timer.unref();
  }

  add(subject: string, metric: string, value: number, at: Date = this.clock()): void {
    if (value === 0) return;
    const hour = hourOf(at);
    const key = `${subject}\u0000${metric}\u0000${hour}`;
    const entry = this.pending.get(key);
    if (entry) entry.value += value;
    else this.pending.set(key, { subject, metric, hour, value });
  }

  /** A counter of one subject's metric, for callers that count it on every request (see UsageCounter). */
  counter(subject: string, metric: string): UsageCounter {
    return new UsageCounter(
      (hour) => this.pendingEntry(subject, metric, hour),
      () => this.epoch,
    );
  }

  private pendingEntry(subject: string, metric: string, hour: number): UsageEntry {
    const key = `${subject}\u0000${metric}\u0000${hour}`;
    let entry = this.pending.get(key);
    if (entry === undefined) {
      entry = { subject, metric, hour, value: 0 };
      this.pending.set(key, entry);
    }
    return entry;
  }

  /** Writes what was counted; on failure the counts are kept for the next flush. */
  flush(): Promise<void> {
    return this.exclusively(() => this.write());
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.epoch++;
    try {
      await this.store.transaction((tx) => tx.usage.add([...batch.values()]));
    } catch (error) {
      for (const [key, entry] of batch) {
        const now = this.pending.get(key);
        if (now) now.value += entry.value;
        else this.pending.set(key, entry);
      }
      throw error;
    }
  }

  /**
   * The sums of `metrics` between two instants for each resource of `kind` the account holds (see
   * UsageCounters.accountTotals). What is not flushed yet is written first: which account a pending
   * subject belongs to only the store knows.
   */
  accountTotals(kind: ResourceKind, accountId: number, metrics: string[], from: Date, to: Date): Promise<ResourceTotal[]> {
    return this.exclusively(async () => {
      await this.write();
      return this.store.usage.accountTotals(kind, accountId, metrics, hourOf(from), hourOf(to));
    });
  }

  /** Hourly sums of `metrics` for `subject` between two instants, flushed or not. */
  series(subject: string, metrics: string[], from: Date, to: Date): Promise<UsageEntry[]> {
    // Not while a flush runs: a batch on its way to the store would be in neither place.
    return this.exclusively(async () => {
      const fromHour = hourOf(from);
      const toHour = hourOf(to);
      const stored = await this.store.usage.series(subject, metrics, fromHour, toHour);
      const out = new Map(stored.map((e) => [`${e.metric}\u0000${e.hour}`, { ...e }]));
      for (const e of this.pending.values()) {
        if (e.subject !== subject || !metrics.includes(e.metric) || e.hour < fromHour || e.hour > toHour) continue;
        const key = `${e.metric}\u0000${e.hour}`;
        const entry = out.get(key);
        if (entry) entry.value += e.value;
        else out.set(key, { ...e });
      }
      return [...out.values()].sort((a, b) => a.hour - b.hour);
    });
  }

  private exclusively<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work, work);
    this.turn = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch(() => {});
  }
}

/**
 * Adds to one subject's metric without building its key and looking it up on every call (which
 * `add` does): it keeps the pending entry of the hour it last counted, until the hour turns or the
 * entry leaves with a flush. The DNS plane counts every query with these, the edge every answer.
 */
export class UsageCounter {
  private entry: UsageEntry | undefined;
  private epoch = -1;

  constructor(
    /** The pending entry of the counter's subject and metric for an hour, made when missing. */
    private readonly pendingEntry: (hour: number) => UsageEntry,
    private readonly currentEpoch: () => number,
  ) {}

  /** `hour`: see hourOf. As `UsageRecorder.add`, a zero adds nothing (no pending entry, no row). */
  add(value: number, hour: number): void {
    if (value === 0) return;
    let entry = this.entry;
    const epoch = this.currentEpoch();
    if (entry === undefined || entry.hour !== hour || this.epoch !== epoch) {
      entry = this.pendingEntry(hour);
      this.entry = entry;
      this.epoch = epoch;
    }
    entry.value += value;
  }
}

/** One subject's counters, each metric's made on its first use. */
export class SubjectCounters {
  private readonly byMetric = new Map<string, UsageCounter>();

  constructor(
    private readonly usage: UsageRecorder,
    private readonly subject: string,
  ) {}

  of(metric: string): UsageCounter {
    let counter = this.byMetric.get(metric);
    if (counter === undefined) {
      counter = this.usage.counter(this.subject, metric);
      this.byMetric.set(metric, counter);
    }
    return counter;
  }
}

/**
 * The counters of numbered subjects (zones), for a plane that counts one on every answer: made on
 * a subject's first count, the `max` most recent kept, one forgotten made again when it counts.
 */
export class CountersById {
  private readonly subjects: BoundedMap<number, SubjectCounters>;

  constructor(
    private readonly usage: UsageRecorder,
    private readonly subjectOf: (id: number) => string,
    max: number,
  ) {
    this.subjects = new BoundedMap(max);
  }

  of(id: number): SubjectCounters {
    let counters = this.subjects.get(id);
    if (counters === undefined) {
      counters = new SubjectCounters(this.usage, this.subjectOf(id));
      this.subjects.set(id, counters);
    }
    return counters;
  }
}
