/**
 * A Map that forgets its oldest entries beyond a size: the in-memory caches hold what was used
 * recently, and a flood of distinct keys cannot grow them without bound.
 *
 * Why not lru-cache: it allocates its whole size up front, which cost 48 ms for the fifteen maps
 * of one runtime (every test app builds one), and its hits move entries (98-172 ns against 50-68
 * here). Eviction walks from the oldest entry with one iterator kept across calls: a fresh
 * `keys().next()` walked every deleted slot at the head of V8's Map again, 10.9 us an insert once
 * full under constant eviction (0.1 us with the kept iterator).
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();
  /** Where the oldest entries are: every live entry is at or after it (set moves a key to the end). */
  private oldest: Iterator<K> | undefined;

  constructor(private readonly maxEntries: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.maxEntries) this.evictOldest();
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.oldest = undefined;
  }

  get size(): number {
    return this.map.size;
  }

  private evictOldest(): void {
    this.oldest ??= this.map.keys();
    let next = this.oldest.next();
    if (next.done) {
      this.oldest = this.map.keys();
      next = this.oldest.next();
    }
    if (!next.done) this.map.delete(next.value);
  }
}

/** An entry that is kept until a time (in whatever unit its map's callers read the clock). */
export interface Expiring {
  readonly until: number;
}

/**
 * A BoundedMap whose entries also expire: tokens, lookups, signatures and windows kept for a
 * while. The entry carries its own end (no wrapper per entry), and one that has passed it is
 * forgotten when it is next asked for; until then it only takes a place the oldest-first eviction
 * gives back.
 */
export class ExpiringMap<K, V extends Expiring> extends BoundedMap<K, V> {
  /** The entry, unless `now` is at or past its end. */
  getFresh(key: K, now: number): V | undefined {
    const entry = this.get(key);
    if (entry === undefined || now < entry.until) return entry;
    this.delete(key);
    return undefined;
  }
}
