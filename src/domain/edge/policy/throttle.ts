/**
 * Download speed limits (LimitRatePerSecond after LimitRateAfter, or a rule's/token's limit): the
 * first `freeBytes` of an answer go at full speed, the rest at `bytesPerSecond`, measured from the
 * moment the free bytes ran out. The schedule is plain arithmetic over an injected clock, so the
 * pacing can be checked without waiting; the stream sends in slices of about 50 ms of data.
 */
import { Transform, type TransformCallback } from 'node:stream';

export interface PacingClock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Calls `then` after `ms`; returns a function that cancels the call. */
  wait(ms: number, then: () => void): () => void;
}

export const systemClock: PacingClock = {
  now: () => performance.now(),
  wait: (ms, then) => {
    const timer = setTimeout(then, ms);
    return () => clearTimeout(timer);
  },
};

export class PacingSchedule {
  sent = 0;
  readonly sliceBytes: number;
  private pacedSince: number | undefined;

  constructor(
    readonly bytesPerSecond: number,
    readonly freeBytes: number,
  ) {
    this.sliceBytes = Math.max(1, Math.ceil(bytesPerSecond / 20));
  }

  get pacing(): boolean {
    return this.sent >= this.freeBytes;
  }

  /** Bytes that may be sent at `now` on top of those already sent. */
  allowance(now: number): number {
    if (!this.pacing) return this.freeBytes - this.sent;
    this.pacedSince ??= now;
    const earned = Math.floor(((now - this.pacedSince) * this.bytesPerSecond) / 1000);
    return Math.max(0, this.freeBytes + earned - this.sent);
  }

  /** Milliseconds from `now` until `bytes` more may be sent (at least 1). */
  delayFor(bytes: number, now: number): number {
    const since = this.pacedSince ?? now;
    const due = since + ((this.sent + bytes - this.freeBytes) * 1000) / this.bytesPerSecond;
    return Math.max(1, Math.ceil(due - now));
  }

  record(bytes: number): void {
    this.sent += bytes;
  }
}

export class PacedStream extends Transform {
  private cancelWait: (() => void) | undefined;

  constructor(
    private readonly schedule: PacingSchedule,
    private readonly clock: PacingClock,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.sendFrom(chunk, 0, done);
  }

  private sendFrom(chunk: Buffer, offset: number, done: TransformCallback): void {
    let at = offset;
    while (at < chunk.length) {
      const now = this.clock.now();
      const wanted = Math.min(chunk.length - at, this.schedule.sliceBytes);
      const allowed = this.schedule.allowance(now);
      if (allowed <= 0 || (this.schedule.pacing && allowed < wanted)) {
        const resumeAt = at;
        this.cancelWait = this.clock.wait(this.schedule.delayFor(wanted, now), () => {
          this.cancelWait = undefined;
          this.sendFrom(chunk, resumeAt, done);
        });
        return;
      }
      const size = Math.min(allowed, chunk.length - at);
      this.push(chunk.subarray(at, at + size));
      this.schedule.record(size);
      at += size;
    }
    done();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.cancelWait?.();
    callback(error);
  }
}

/** 1 kB = 1,000 bytes, as the platform's own example reads (LimitRateAfter 2000 = the first 2 MB). */
export const KILOBYTE = 1000;
