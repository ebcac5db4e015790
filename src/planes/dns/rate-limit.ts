/**
 * A token bucket per client, so one source cannot flood the server, nor use it to flood a victim
 * whose address it spoofs. Over the limit, queries are dropped, except every `slip`th, which gets
 * an empty answer with TC set (BIND's response rate limiting does the same, `slip 2` by default):
 * a real client behind a limited address retries over TCP, which a spoofer cannot, and the
 * truncated answer is no bigger than the query, so the victim receives nothing amplified.
 *
 * Memory is bounded: buckets live in a map of at most `clients` entries, the least recently seen
 * forgotten first. A forgotten client starts again with a full bucket, which only a flood of more
 * distinct sources than that can cause, and each of those is itself limited.
 */
import { BoundedMap } from '../../domain/bounded-map.js';
import { fullBucket, type TokenBucket, takeToken } from '../../security/token-bucket.js';

export type Verdict = 'pass' | 'drop' | 'slip';

interface Bucket extends TokenBucket {
  /** When the bucket was last moved to the recent end of the map (ms). */
  touched: number;
  /** Queries refused so far: every `slip`th one slips through truncated. */
  refused: number;
}

/** Moving a bucket to the recent end costs a map delete and insert; once a second is recent enough. */
const TOUCH_INTERVAL_MS = 1000;

export class SourceRateLimit {
  private readonly buckets: BoundedMap<string, Bucket>;
  private readonly perMs: number;
  private readonly burst: number;

  constructor(
    perSecond: number,
    burst: number,
    private readonly slip: number,
    clients: number,
  ) {
    this.perMs = perSecond / 1000;
    this.burst = Math.max(1, burst);
    this.buckets = new BoundedMap(clients);
  }

  check(address: string, now: number = performance.now()): Verdict {
    const key = sourceKey(address);
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = { ...fullBucket(this.burst, now), touched: now, refused: 0 };
      this.buckets.set(key, bucket);
    } else if (now - bucket.touched >= TOUCH_INTERVAL_MS) {
      bucket.touched = now;
      this.buckets.set(key, bucket);
    }
    if (takeToken(bucket, now, this.perMs, this.burst)) return 'pass';
    bucket.refused++;
    return this.slip > 0 && bucket.refused % this.slip === 0 ? 'slip' : 'drop';
  }
}

/**
 * Who a bucket belongs to: an IPv4 address, or an IPv6 /64 (one host's usual share: a client can
 * pick any address of its /64, and would otherwise get a bucket per address).
 */
export function sourceKey(address: string): string {
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.split('%')[0]!.toLowerCase();
  const [head = '', tail] = bare.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : new Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0');
  return [...headGroups, ...zeros, ...tailGroups]
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')
    .concat('::/64');
}
