/**
 * Writes the edge makes after it has answered, bounded so that a burst of misses can neither pile
 * up memory nor flood the store: at most `concurrency` run at once, at most `maxQueued` wait (and
 * `maxQueuedBytes` of bodies across those waiting and running, unless nothing else is pending),
 * one per key at a time. A write that does not fit is dropped, as the platform documents for its
 * perma-cache (a miss does not promise a write; the next miss tries again). Failures go to
 * `onError`, never to the request that caused the write.
 */

export interface WriteLimits {
  concurrency: number;
  maxQueued: number;
  maxQueuedBytes: number;
}

interface Write {
  key: string;
  bytes: number;
  run: () => Promise<void>;
}

export class BackgroundWrites {
  private readonly waiting: Write[] = [];
  /** Keys waiting or running. */
  private readonly keys = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private bytes = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly limits: WriteLimits,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Queues a write; false when it is dropped (closed, full, or the key's write already pending). */
  add(key: string, bytes: number, run: () => Promise<void>): boolean {
    if (this.closed || this.keys.has(key) || this.waiting.length >= this.limits.maxQueued) return false;
    if (this.keys.size > 0 && this.bytes + bytes > this.limits.maxQueuedBytes) return false;
    this.keys.add(key);
    this.bytes += bytes;
    this.waiting.push({ key, bytes, run });
    this.next();
    return true;
  }

  /** Resolves once nothing waits or runs (tests, and a close that lets the writes finish). */
  idle(): Promise<void> {
    if (this.keys.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Takes no more writes, drops those waiting, and resolves once those running are done. */
  async close(): Promise<void> {
    this.closed = true;
    for (const write of this.waiting.splice(0)) this.done(write);
    await Promise.all(this.running);
  }

  private next(): void {
    while (this.running.size < this.limits.concurrency && this.waiting.length > 0) {
      const write = this.waiting.shift()!;
      const running: Promise<void> = write
        .run()
        .catch(this.onError)
        .finally(() => {
          this.running.delete(running);
          this.done(write);
          this.next();
        });
      this.running.add(running);
    }
  }

  private done(write: Write): void {
    this.keys.delete(write.key);
    this.bytes -= write.bytes;
    if (this.keys.size > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
