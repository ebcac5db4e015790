/**
 * What the origin shield lets through to one zone's origin at once (OriginShieldEnableConcurrencyLimit):
 * at most `maxConcurrent` origin requests in flight; the next ones wait, first come first served, in
 * a queue of at most `maxQueued`, each for at most `maxWaitMs`. A request that finds the queue full,
 * or waits longer, is refused: the platform's excess requests "queued or blocked".
 *
 * The bounds are read on every request, so a zone's new settings apply from its next request; a
 * lower `maxConcurrent` lets nobody new through until enough requests in flight have finished.
 */

export interface ConcurrencyBounds {
  maxConcurrent: number;
  maxQueued: number;
  /** How long a request may wait in the queue; 0: it may not wait. */
  maxWaitMs: number;
}

/**
 * What a limit tells as requests pass it: one went to the origin (at once or after waiting), one
 * had to wait in the queue, one was refused at once because it could not wait (the queue full, or
 * no wait allowed). A request that waits and is then refused was told as `queued`.
 */
export type QueueEvent = 'ran' | 'queued' | 'refused';

/** A request's turn: go (then `release` once its origin request is done), or refused and why. */
export type Turn = { kind: 'go'; release(): void } | { kind: 'refused'; why: 'queue-full' | 'waited-too-long' };

interface Waiter {
  resolve(turn: Turn): void;
  timer: NodeJS.Timeout;
}

export class ConcurrencyLimit {
  private inFlight = 0;
  private maxConcurrent = 1;
  /** Waiting requests in arrival order (a Set keeps it, and lets a request that gave up leave at once). */
  private readonly queue = new Set<Waiter>();

  /** `onIdle`: nothing is in flight or waiting any more (the owner may forget this limit); `counted`: each QueueEvent. */
  constructor(
    private readonly onIdle: () => void = () => undefined,
    private readonly counted: (event: QueueEvent) => void = () => undefined,
  ) {}

  get running(): number {
    return this.inFlight;
  }

  get waiting(): number {
    return this.queue.size;
  }

  take(bounds: ConcurrencyBounds): Turn | Promise<Turn> {
    this.maxConcurrent = Math.max(1, bounds.maxConcurrent);
    // A raised limit lets those already waiting go first.
    if (this.queue.size > 0 && this.inFlight < this.maxConcurrent) this.next();
    if (this.inFlight < this.maxConcurrent && this.queue.size === 0) return this.go();
    if (this.queue.size >= bounds.maxQueued || bounds.maxWaitMs <= 0) {
      this.counted('refused');
      return REFUSED_FULL;
    }
    return new Promise<Turn>((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          this.queue.delete(waiter);
          resolve(REFUSED_WAITED);
          this.idleCheck();
        }, bounds.maxWaitMs),
      };
      this.queue.add(waiter);
      this.counted('queued');
    });
  }

  private go(): Turn {
    this.inFlight++;
    this.counted('ran');
    let released = false;
    return {
      kind: 'go',
      release: () => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.next();
      },
    };
  }

  /** Hands freed places to the longest waiting requests. */
  private next(): void {
    for (const waiter of this.queue) {
      if (this.inFlight >= this.maxConcurrent) break;
      this.queue.delete(waiter);
      clearTimeout(waiter.timer);
      waiter.resolve(this.go());
    }
    this.idleCheck();
  }

  private idleCheck(): void {
    if (this.inFlight === 0 && this.queue.size === 0) this.onIdle();
  }
}

const REFUSED_FULL: Turn = Object.freeze({ kind: 'refused', why: 'queue-full' });
const REFUSED_WAITED: Turn = Object.freeze({ kind: 'refused', why: 'waited-too-long' });

/** One limit per zone, kept while the zone has requests in flight or waiting. */
export class ZoneConcurrencyLimits {
  private readonly limits = new Map<number, ConcurrencyLimit>();

  /** `counted`: each zone's QueueEvents (the shield's queue statistics). */
  constructor(private readonly counted: (zoneId: number, event: QueueEvent) => void = () => undefined) {}

  take(zoneId: number, bounds: ConcurrencyBounds): Turn | Promise<Turn> {
    let limit = this.limits.get(zoneId);
    if (limit === undefined) {
      const created = new ConcurrencyLimit(
        () => {
          if (this.limits.get(zoneId) === created) this.limits.delete(zoneId);
        },
        (event) => this.counted(zoneId, event),
      );
      this.limits.set(zoneId, created);
      limit = created;
    }
    return limit.take(bounds);
  }

  /** The zone's origin requests in flight and waiting (tests and statistics look). */
  of(zoneId: number): { running: number; waiting: number } {
    const limit = this.limits.get(zoneId);
    return { running: limit?.running ?? 0, waiting: limit?.waiting ?? 0 };
  }
}
