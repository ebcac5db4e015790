/** The token buckets on their own, on a clock the test moves: exact counts, no timing. */
import { describe, expect, it } from 'vitest';
import { SourceRateLimit, sourceKey } from '../../../src/planes/dns/rate-limit.js';

describe('SourceRateLimit', () => {
  it('passes a burst, refuses the rest with every slip-th truncated, and refills at the rate', () => {
    const limit = new SourceRateLimit(1000, 5, 3, 100);
    const verdicts = Array.from({ length: 11 }, () => limit.check('192.0.2.1', 0));
    expect(verdicts).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'drop', 'drop', 'slip', 'drop', 'drop', 'slip']);
    // 1,000 per second: one token a millisecond.
    expect(limit.check('192.0.2.1', 0.5)).toBe('drop');
    expect(['2', '2', '2', '2'].map(() => limit.check('192.0.2.1', 2))).toEqual(['pass', 'pass', 'drop', 'slip']);
    // Never more than the burst, however long the source was quiet.
    expect(Array.from({ length: 7 }, () => limit.check('192.0.2.1', 60_000)).filter((v) => v === 'pass')).toHaveLength(5);
  });

  it('keeps a bucket per source, and forgets the least recently seen beyond its size', () => {
    const limit = new SourceRateLimit(1, 1, 0, 2);
    expect(limit.check('192.0.2.1', 0)).toBe('pass');
    expect(limit.check('192.0.2.1', 0)).toBe('drop');
    expect(limit.check('192.0.2.2', 0)).toBe('pass');
    expect(limit.check('192.0.2.3', 0)).toBe('pass');
    // 192.0.2.1 was forgotten to make room: it starts again with a full bucket.
    expect(limit.check('192.0.2.1', 0)).toBe('pass');
  });
});

describe('sourceKey', () => {
  it('is the address for IPv4 (mapped or not), and the /64 for IPv6, however it is written', () => {
    expect(sourceKey('192.0.2.1')).toBe('192.0.2.1');
    expect(sourceKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(sourceKey('2001:db8:0:1::53')).toBe('2001:db8:0:1::/64');
    expect(sourceKey('2001:0db8:0000:0001:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:0:1::/64');
    expect(sourceKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(sourceKey('::1')).toBe('0:0:0:0::/64');
    expect(sourceKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
