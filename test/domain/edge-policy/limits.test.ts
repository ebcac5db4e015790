/**
 * RequestLimit/BurstSize, ConnectionLimitPerIPCount, LimitRatePerSecond/LimitRateAfter, and the rule
 * actions that set the same limits. Time is passed in (admit's `now`) or runs on a manual clock
 * (download pacing), so nothing here waits.
 */
import { describe, expect, it } from 'vitest';
import type { PacingClock } from '../../../src/domain/edge/policy/throttle.js';
import type { Admission, Verdict } from '../../../src/domain/edge/types.js';
import { action, always, policy, request, rule, trigger, zoneWith } from './helpers.js';

const isVerdict = (x: Admission | Verdict): x is Verdict => 'kind' in x;
const admitted = (x: Admission | Verdict): Admission => {
  if (isVerdict(x)) throw new Error(`refused: ${JSON.stringify(x)}`);
  return x;
};

describe('RequestLimit and BurstSize', () => {
  it('serve RequestLimit + BurstSize requests at once, refuse the next with 429, and refill at RequestLimit per second', () => {
    const p = policy();
    const zone = zoneWith({ RequestLimit: 2, BurstSize: 1 });
    const client = request({ clientIp: '192.0.2.1' });
    for (let i = 0; i < 3; i++) expect(isVerdict(p.admit(zone, client, 1000))).toBe(false);
    expect(p.admit(zone, client, 1000)).toEqual({ kind: 'refuse', status: 429, reason: 'request-rate-limit' });
    // Half a second later one more request has been earned (2 per second), not two.
    expect(isVerdict(p.admit(zone, client, 1500))).toBe(false);
    expect(isVerdict(p.admit(zone, client, 1500))).toBe(true);
    // A long pause refills the bucket to its capacity, no more.
    for (let i = 0; i < 3; i++) expect(isVerdict(p.admit(zone, client, 60_000))).toBe(false);
    expect(isVerdict(p.admit(zone, client, 60_000))).toBe(true);
  });

  it('without a burst, allow RequestLimit per second', () => {
    const p = policy();
    const zone = zoneWith({ RequestLimit: 1 });
    expect(isVerdict(p.admit(zone, request(), 0))).toBe(false);
    expect(isVerdict(p.admit(zone, request(), 999))).toBe(true);
    expect(isVerdict(p.admit(zone, request(), 2000))).toBe(false);
  });

  it('count each client address, and each zone, apart; IPv4-mapped clients count as their IPv4 address', () => {
    const p = policy();
    const zone = zoneWith({ RequestLimit: 1 });
    const other = zoneWith({ RequestLimit: 1 });
    expect(isVerdict(p.admit(zone, request({ clientIp: '192.0.2.1' }), 0))).toBe(false);
    expect(isVerdict(p.admit(zone, request({ clientIp: '::ffff:192.0.2.1' }), 0))).toBe(true);
    expect(isVerdict(p.admit(zone, request({ clientIp: '192.0.2.2' }), 0))).toBe(false);
    expect(isVerdict(p.admit(other, request({ clientIp: '192.0.2.1' }), 0))).toBe(false);
  });

  it('limit nothing when RequestLimit is 0', () => {
    const p = policy();
    const zone = zoneWith({ RequestLimit: 0, BurstSize: 5 });
    for (let i = 0; i < 1000; i++) expect(isVerdict(p.admit(zone, request(), 0))).toBe(false);
  });

  it('a rule’s SetRequestsPerSecondLimit (requests, burst) applies to the requests it matches', () => {
    const p = policy();
    const zone = zoneWith({ EdgeRules: [rule(action(20, '1', '1'), [trigger(0, ['/api/*'])])] });
    const api = request({ path: '/api/x' });
    expect(isVerdict(p.admit(zone, api, 0))).toBe(false);
    expect(isVerdict(p.admit(zone, api, 0))).toBe(false);
    expect(p.admit(zone, api, 0)).toMatchObject({ kind: 'refuse', status: 429 });
    for (let i = 0; i < 10; i++) expect(isVerdict(p.admit(zone, request({ path: '/img/x.jpg' }), 0))).toBe(false);
  });
});

describe('ConnectionLimitPerIPCount', () => {
  it('lets a client have that many requests in flight, refuses one more with 429, and admits again on release', () => {
    const p = policy();
    const zone = zoneWith({ ConnectionLimitPerIPCount: 2 });
    const first = admitted(p.admit(zone, request(), 0));
    admitted(p.admit(zone, request(), 0));
    expect(p.admit(zone, request(), 0)).toEqual({ kind: 'refuse', status: 429, reason: 'connection-limit' });
    // Another client is not affected.
    admitted(p.admit(zone, request({ clientIp: '198.51.100.1' }), 0));
    first.release();
    first.release(); // releasing twice frees one slot, not two
    admitted(p.admit(zone, request(), 0));
    expect(isVerdict(p.admit(zone, request(), 0))).toBe(true);
  });

  it('limits nothing when 0', () => {
    const p = policy();
    const zone = zoneWith({ ConnectionLimitPerIPCount: 0 });
    for (let i = 0; i < 100; i++) admitted(p.admit(zone, request(), 0));
  });

  it('a rule’s SetConnectionLimit applies to the requests it matches', () => {
    const p = policy();
    const zone = zoneWith({ EdgeRules: [rule(action(19, '1'), [trigger(3, ['mp4'])])] });
    admitted(p.admit(zone, request({ path: '/v/a.mp4' }), 0));
    expect(p.admit(zone, request({ path: '/v/b.mp4' }), 0)).toMatchObject({ kind: 'refuse', status: 429 });
    admitted(p.admit(zone, request({ path: '/v/a.jpg' }), 0));
    admitted(p.admit(zone, request({ path: '/v/b.jpg' }), 0));
  });
});

/** A clock that moves only when told, firing what was due. */
class ManualClock implements PacingClock {
  private t = 0;
  private timers: { at: number; then: () => void }[] = [];
  now = () => this.t;
  wait = (ms: number, then: () => void) => {
    const timer = { at: this.t + ms, then };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((x) => x !== timer);
    };
  };
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = next.at;
      next.then();
      await new Promise((r) => setImmediate(r));
    }
    this.t = end;
    await new Promise((r) => setImmediate(r));
  }
}

/** Bytes out of a throttle stream after each step of the clock. */
async function paced(throttle: import('node:stream').Transform, clock: ManualClock, total: number, stepMs: number, steps: number) {
  let received = 0;
  throttle.on('data', (chunk: Buffer) => {
    received += chunk.length;
  });
  throttle.end(Buffer.alloc(total, 0x61));
  await new Promise((r) => setImmediate(r));
  const seen = [received];
  for (let i = 0; i < steps; i++) {
    await clock.advance(stepMs);
    seen.push(received);
  }
  return seen;
}

describe('LimitRatePerSecond and LimitRateAfter', () => {
  it('send the first LimitRateAfter kB at once, then LimitRatePerSecond kB each second', async () => {
    const clock = new ManualClock();
    const p = policy({ pacingClock: clock });
    const zone = zoneWith({ LimitRatePerSecond: 10, LimitRateAfter: 5 });
    const throttle = p.throttle(zone)!;
    expect(throttle).toBeDefined();
    const seen = await paced(throttle, clock, 30_000, 500, 6);
    // 5,000 bytes free, then 10,000 bytes per second: 5,000 more every half second.
    expect(seen).toEqual([5_000, 10_000, 15_000, 20_000, 25_000, 30_000, 30_000]);
  });

  it('without LimitRateAfter, pace from the first byte', async () => {
    const clock = new ManualClock();
    const p = policy({ pacingClock: clock });
    const seen = await paced(p.throttle(zoneWith({ LimitRatePerSecond: 4 }))!, clock, 8_000, 1000, 3);
    expect(seen).toEqual([0, 4_000, 8_000, 8_000]);
  });

  it('nothing is paced when LimitRatePerSecond is 0, even with LimitRateAfter set', () => {
    const p = policy();
    expect(p.throttle(zoneWith({ LimitRatePerSecond: 0, LimitRateAfter: 100 }))).toBeUndefined();
    expect(p.throttle(zoneWith())).toBeUndefined();
  });

  it('a rule’s SetNetworkRateLimit paces the requests it matches, over the zone’s own rate', async () => {
    const clock = new ManualClock();
    const p = policy({ pacingClock: clock });
    const zone = zoneWith({ EdgeRules: [always(action(18, '2'))] });
    const { effects } = p.onRequest(zone, request(), new Date());
    expect(effects.rateLimitKBps).toBe(2);
    const seen = await paced(p.throttle(zone, effects)!, clock, 4_000, 1000, 2);
    expect(seen).toEqual([0, 2_000, 4_000]);
  });
});
