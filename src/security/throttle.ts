/**
 * The two request throttles, as pure bookkeeping over an injected clock (milliseconds), so they
 * are tested without sleeping and hold no timers. Both live in one process's memory: with several
 * instances behind a balancer, each enforces its own share. Both cap how many entries they track,
 * so a flood of distinct keys or addresses costs bounded memory.
 */
import { createHash } from 'node:crypto';
import { ExpiringMap } from '../domain/bounded-map.js';
import { fullBucket, type TokenBucket, takeToken } from './token-bucket.js';

export type Now = () => number;

/** `retryAfterSeconds` is what the 429's `Retry-After` header says: a whole number, at least 1. */
export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const ALLOWED: Verdict = { allowed: true };
const DEFAULT_MAX_ENTRIES = 10_000;

const secondsUntil = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * A token bucket per key: `ratePerSecond` tokens refill continuously up to `burst`, and each
 * request takes one. A client may burst, then is held to the steady rate.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly now: Now,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {
    if (ratePerSecond <= 0 || burst < 1) throw new Error('a token bucket needs a positive rate and a burst of at least 1');
  }

  take(key: string): Verdict {
    const now = this.now();
    const bucket = this.bucketOf(key, now);
    if (takeToken(bucket, now, this.ratePerSecond / 1000, this.burst)) return ALLOWED;
    return { allowed: false, retryAfterSeconds: secondsUntil(((1 - bucket.tokens) * 1000) / this.ratePerSecond) };
  }

  get size(): number {
    return this.buckets.size;
  }

  private bucketOf(key: string, now: number): TokenBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      this.makeRoom(now);
      bucket = fullBucket(this.burst, now);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** A full bucket is the same as no bucket, so those go first; then the least recently created. */
  private makeRoom(now: number): void {
    if (this.buckets.size < this.maxEntries) return;
    const fullAfterMs = (this.burst * 1000) / this.ratePerSecond;
    for (const [key, b] of this.buckets) if (now - b.at >= fullAfterMs) this.buckets.delete(key);
    while (this.buckets.size >= this.maxEntries) this.buckets.delete(this.buckets.keys().next().value!);
  }
}

interface Window {
  /** When the window ends. */
  until: number;
  /** Fingerprints of the distinct credentials that failed in this window. */
  failed: Set<string>;
}

/**
 * Failed authentication per client address in fixed windows. Once `limit` distinct wrong
 * credentials came from one address within `windowMs`, that address is refused until the window
 * ends. Distinct, because guessing means trying many values: a client retrying one stale key is
 * misconfigured, not attacking, and must not lock out the others behind the same address.
 * A success never clears the count, so a valid key cannot be used to reset a guessing run.
 */
export class FailureWindows {
  /**
   * Once full, the oldest window gives its place: all last as long, so it is the first to end,
   * and those that ended go before any that still count.
   */
  private readonly windows: ExpiringMap<string, Window>;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: Now,
    maxEntries = DEFAULT_MAX_ENTRIES,
  ) {
    if (limit < 1 || windowMs <= 0) throw new Error('a failure window needs a limit of at least 1 and a positive length');
    this.windows = new ExpiringMap(maxEntries);
  }

  check(address: string): Verdict {
    const now = this.now();
    const w = this.windows.getFresh(address, now);
    if (!w || w.failed.size < this.limit) return ALLOWED;
    return { allowed: false, retryAfterSeconds: secondsUntil(w.until - now) };
  }

  recordFailure(address: string, credential: string): void {
    const now = this.now();
    let w = this.windows.getFresh(address, now);
    if (!w) {
      w = { until: now + this.windowMs, failed: new Set() };
      this.windows.set(address, w);
    }
    // The set never grows past the limit: that is all the decision needs to know.
    if (w.failed.size < this.limit) w.failed.add(fingerprint(credential));
  }

  get size(): number {
    return this.windows.size;
  }
}

/** Only a short digest is kept: the throttle must not become a store of attempted keys. */
function fingerprint(credential: string): string {
  return createHash('sha256').update(credential).digest('base64url').slice(0, 16);
}
