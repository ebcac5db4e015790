/**
 * A packet cache for UDP, as PowerDNS keeps one: the bytes of an answer, kept under the bytes of
 * the query that got it (everything after the ID), so a repeated query is answered with a copy and
 * its own ID, without decoding, looking up or encoding anything. Sending a datagram costs Node
 * about as much as all of that together; without the cache a query costs twice what it does with.
 *
 * Same bytes in, same bytes out, holds only for what the authority vouches for:
 * - it exposes a `generation` that changes whenever an answer may come from another zone (a zone
 *   added or removed), and `zoneGeneration(id)` that moves with every version of one zone: an entry
 *   is used only while both are as they were when it was made, or, once the zone's moved, while
 *   `unchangedSince` vouches that no version since touched what the answer was made from (its
 *   `depends`: while records are written into a zone, the rest of it stays cached). Without
 *   `generation`, nothing is cached; without `zoneGeneration`, `generation` must move on every
 *   change.
 * - it marks an answer `cacheable` when the same query would get the same answer until then: not
 *   one chosen by chance (weights), by who asks (geolocation, latency), or learnt upstream.
 * Entries also expire after MAX_AGE_MS whatever the generation, so nothing missed above lives long.
 * The key covers every byte the answer depends on: the question as spelt (case echoed), the flags,
 * the EDNS size, DO bit and options (a query with a client cookie is its own entry).
 */
import { randomBytes } from 'node:crypto';
import { BoundedMap } from '../../domain/bounded-map.js';
import type { AnswerDependencies, Answered } from '../../domain/dns/serving/types.js';
import type { AnswerTally } from './options.js';

/** What an authority adds to have its answers cached (see above); optional members of its own. */
export interface CacheableAuthority {
  readonly generation?: number;
  /** A zone's own generation: an answer of that zone stays good while it does not move (and `generation` neither). */
  zoneGeneration?(id: number): number | undefined;
  /** When the zone's generation moved: whether an answer made from `depends` at `since` still stands. */
  unchangedSince?(id: number, since: number, depends: AnswerDependencies): boolean;
}
export interface CacheableAnswered extends Answered {
  cacheable?: boolean;
}

/**
 * One kept answer. Its layout is set by memory, not by arithmetic: between two queries the
 * kernel's network stack runs and pushes the plane's data out of the CPU's nearer caches, so a hit
 * costs the cache misses of what it reads more than its instructions (`perf annotate` of the hit
 * path: most of its samples sat on the first load of an entry, of its query's bytes, and of its
 * expiry). Hence a class (one shape: every field read through one inline cache), the query and its
 * answer in one buffer (one object and one stretch of memory, not two of each), the expiry a small
 * integer (a fractional number in a field is a separate heap object, one more miss), and nothing
 * kept that is the same for every sending (what a query's size or DO bit mean is in the tally).
 */
export class CachedAnswer {
  constructor(
    /** The query it answers (bytes [0, queryLength), its ID aside), then the UDP answer as first sent (truncated if it was), its ID to be replaced. */
    readonly data: Buffer,
    readonly queryLength: number,
    readonly generation: number,
    /** The zone that answered, -1 for none; and its generation then (or since which it is known to stand), -1 when the authority does not tell. */
    readonly zoneId: number,
    public zoneGeneration: number,
    /** What of the zone the answer was made from; undefined: all of it. */
    readonly depends: AnswerDependencies | undefined,
    /** Whole seconds of `performance.now()` (see `secondsOf`). */
    readonly expires: number,
    /** What counting a sending of this answer takes (see DnsPlaneOptions.tallyOf). */
    readonly tally: AnswerTally | undefined,
  ) {}
}

export interface AnswerToKeep {
  bytes: Buffer;
  answered: Answered;
  /** The authority's generation, read when the answer was made. */
  generation: number;
  tally: AnswerTally | undefined;
}

/**
 * The safety net's span: PowerDNS keeps its packet cache's answers 20 s by default (`cache-ttl`),
 * without seeing changes at all. Each expiry costs a full answer (decode, look up, encode), which
 * at 5 s, the span until 2026-11-27, was 7.5% of the plane's time under a steady load.
 */
const MAX_AGE_S = 20;

/** A `performance.now()` in whole seconds: a small integer for as long as any process runs. */
const secondsOf = (now: number) => Math.floor(now / 1000);
/** Longer queries carry options worth no entry (or are not queries at all): always answered afresh. */
const MAX_KEY_BYTES = 300;

export class AnswerCache {
  private readonly entries: BoundedMap<number, CachedAnswer>;
  /** Seeds the key hash, so that no one can work out ahead which queries would push each other out. */
  private readonly seed = randomBytes(4).readUInt32LE(0);

  constructor(
    private readonly authority: CacheableAuthority,
    size: number,
  ) {
    this.entries = new BoundedMap(size);
  }

  static usable(authority: CacheableAuthority, size: number): boolean {
    return size > 0 && typeof authority.generation === 'number';
  }

  /**
   * The entry a query would be kept under: a hash (FNV-1a) of its bytes after the ID, or undefined
   * for a query never kept. A number, not the bytes as a string: making that string and hashing it
   * cost more than the rest of a hit's lookup. Two queries of one hash share the entry, the later
   * pushing the earlier out; `get` compares the bytes, so neither ever gets the other's answer.
   */
  keyOf(message: Buffer): number | undefined {
    const length = message.length;
    if (length < 12 || length > MAX_KEY_BYTES) return undefined;
    let hash = this.seed;
    for (let i = 2; i < length; i++) hash = Math.imul(hash ^ message[i]!, 0x01000193);
    // 30 bits: a small integer to V8 (31-bit Smis), which a Map hashes and compares fastest.
    return hash & 0x3fffffff;
  }

  get(key: number, message: Buffer, now: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || !isQueryOf(entry, message)) return undefined;
    if (entry.generation === this.authority.generation && secondsOf(now) < entry.expires && this.zoneCurrent(entry)) return entry;
    this.entries.delete(key);
    return undefined;
  }

  private zoneCurrent(entry: CachedAnswer): boolean {
    const authority = this.authority;
    if (entry.zoneId < 0 || authority.zoneGeneration === undefined) return true;
    const now = authority.zoneGeneration(entry.zoneId);
    if (now === entry.zoneGeneration) return true;
    // The zone changed: the answer stands if nothing it was made from did, and then until `now`.
    const depends = entry.depends;
    if (now === undefined || depends === undefined || authority.unchangedSince?.(entry.zoneId, entry.zoneGeneration, depends) !== true) return false;
    entry.zoneGeneration = now;
    return true;
  }

  /** Keeps `bytes` (copied: the caller sends its own) for `message` when the authority vouches for the answer. */
  offer(key: number, message: Buffer, answer: AnswerToKeep, now: number): void {
    if ((answer.answered as CacheableAnswered).cacheable !== true) return;
    const zone = answer.answered.zone;
    const zoneId = zone === undefined ? -1 : zone.id;
    const zoneGeneration = zone === undefined ? -1 : (this.authority.zoneGeneration?.(zone.id) ?? -1);
    const data = Buffer.allocUnsafe(message.length + answer.bytes.length);
    message.copy(data);
    answer.bytes.copy(data, message.length);
    const entry = new CachedAnswer(
      data,
      message.length,
      answer.generation,
      zoneId,
      zoneGeneration,
      answer.answered.depends,
      secondsOf(now) + MAX_AGE_S,
      answer.tally,
    );
    this.entries.set(key, entry);
  }

  /** A copy of the cached answer carrying the query's ID. */
  static answerTo(message: Buffer, entry: CachedAnswer): Buffer {
    const { data, queryLength } = entry;
    const out = Buffer.allocUnsafe(data.length - queryLength);
    data.copy(out, 0, queryLength);
    out[0] = message[0]!;
    out[1] = message[1]!;
    return out;
  }
}

/** Whether `message` is the entry's query but for its ID. */
function isQueryOf(entry: CachedAnswer, message: Buffer): boolean {
  const length = entry.queryLength;
  if (message.length !== length) return false;
  const data = entry.data;
  for (let i = 2; i < length; i++) if (data[i] !== message[i]) return false;
  return true;
}
