import { describe, expect, it } from 'vitest';
import { FailureWindows, TokenBuckets } from '../../src/security/throttle.js';

/** A clock the test moves by hand. */
const manualClock = (start = 1_000_000) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
};

describe('TokenBuckets', () => {
  it('allows a burst, then holds a key to its rate, and tells when to retry', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(10, 20, clock.now);
    for (let i = 0; i < 20; i++) expect(buckets.take('k').allowed, `request ${i}`).toBe(true);
    expect(buckets.take('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(100);
    expect(buckets.take('k').allowed).toBe(true);
    expect(buckets.take('k').allowed).toBe(false);
    clock.advance(60_000);
    for (let i = 0; i < 20; i++) expect(buckets.take('k').allowed).toBe(true);
    expect(buckets.take('k').allowed).toBe(false);
  });

  it('keeps keys apart', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(1, 1, clock.now);
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a').allowed).toBe(false);
    expect(buckets.take('b').allowed).toBe(true);
  });

  it('rounds Retry-After up to whole seconds for slow rates', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(0.25, 1, clock.now);
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterSeconds: 4 });
    clock.advance(3_500);
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('neither mints nor drains tokens when the clock steps back', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(1, 2, clock.now);
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a').allowed).toBe(true);
    clock.advance(-10_000);
    expect(buckets.take('a').allowed).toBe(false);
    clock.advance(11_000);
    expect(buckets.take('a').allowed).toBe(true);
  });

  it('tracks a bounded number of keys', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(1, 1, clock.now, 100);
    for (let i = 0; i < 1000; i++) buckets.take(`key-${i}`);
    expect(buckets.size).toBeLessThanOrEqual(100);
  });

  it('rejects a rate of zero (the caller turns the limit off instead)', () => {
    expect(() => new TokenBuckets(0, 1, Date.now)).toThrow();
  });
});

describe('FailureWindows', () => {
  it('refuses an address after `limit` distinct wrong credentials, until the window ends', () => {
    const clock = manualClock();
    const windows = new FailureWindows(3, 60_000, clock.now);
    for (const guess of ['a', 'b']) windows.recordFailure('10.0.0.1', guess);
    expect(windows.check('10.0.0.1').allowed).toBe(true);
    clock.advance(20_000);
    windows.recordFailure('10.0.0.1', 'c');
    expect(windows.check('10.0.0.1')).toEqual({ allowed: false, retryAfterSeconds: 40 });
    expect(windows.check('10.0.0.2').allowed).toBe(true);
    clock.advance(39_999);
    expect(windows.check('10.0.0.1')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1);
    expect(windows.check('10.0.0.1').allowed).toBe(true);
  });

  it('counts one stale key retried many times once', () => {
    const clock = manualClock();
    const windows = new FailureWindows(3, 60_000, clock.now);
    for (let i = 0; i < 100; i++) windows.recordFailure('10.0.0.1', 'stale-key');
    expect(windows.check('10.0.0.1').allowed).toBe(true);
  });

  it('starts a fresh count in the next window', () => {
    const clock = manualClock();
    const windows = new FailureWindows(2, 1_000, clock.now);
    windows.recordFailure('x', '1');
    clock.advance(1_000);
    windows.recordFailure('x', '2');
    expect(windows.check('x').allowed).toBe(true);
  });

  it('tracks a bounded number of addresses', () => {
    const clock = manualClock();
    const windows = new FailureWindows(5, 60_000, clock.now, 50);
    for (let i = 0; i < 500; i++) windows.recordFailure(`10.0.${i >> 8}.${i & 255}`, 'k');
    expect(windows.size).toBeLessThanOrEqual(50);
  });
});
