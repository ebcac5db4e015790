/**
 * A packet cache for UDP, as PowerDNS keeps one: the bytes of an answer, kept under the bytes of
 * the query that got it (everything after the ID), so a repeated query is answered with a copy and
 * its own ID, without decoding, looking up or encoding anything. Sending a datagram costs Node
 * about as much as all of that together; without the cache a query costs twice what it does with.
 *
 * Same bytes in, same bytes out, holds only for what the authority vouches for:
 * - it exposes a `generation` that changes whenever an answer may come from another zone (a zone
 *   added or removed), and `zoneGeneration(id)` that moves with every version of one zone: an entry
 *   is used only while both are as they were when it was made. Without `generation`, nothing is
 *   cached; without `zoneGeneration`, `generation` must move on every change.
 * - it marks an answer `cacheable` when the same query would get the same answer until then: not
 *   one chosen by chance (weights), by who asks (geolocation, latency), or learnt upstream.
 * Entries also expire after MAX_AGE_MS whatever the generation, so nothing missed above lives long.
 * The key covers every byte the answer depends on: the question as spelt (case echoed), the flags,
 * the EDNS size, DO bit and options (a query with a client cookie is its own entry).
 */
import { BoundedMap } from '../../domain/bounded-map.js';
import type { Answered } from '../../domain/dns/serving/types.js';
import type { AnswerTally } from './options.js';

/** What an authority adds to have its answers cached (see above); optional members of its own. */
export interface CacheableAuthority {
  readonly generation?: number;
  /** A zone's own generation: an answer of that zone stays good while it does not move (and `generation` neither). */
  zoneGeneration?(id: number): number | undefined;
}
export interface CacheableAnswered extends Answered {
  cacheable?: boolean;
}

/**
 * One kept answer. A class, so that every entry has one shape: the hit path reads its fields for
 * every query, and entries made as object literals (spread, optional members) left those reads
 * polymorphic, missing V8's inline caches on a tenth of the plane's CPU time.
 */
export class CachedAnswer {
  constructor(
    /** The UDP answer as first sent (truncated if it was), its ID to be replaced. */
    readonly bytes: Buffer,
    readonly maxSize: number,
    readonly dnssecOk: boolean,
    readonly generation: number,
    /** The zone that answered, -1 for none; and its generation then, -1 when the authority does not tell. */
    readonly zoneId: number,
    readonly zoneGeneration: number,
    readonly expires: number,
    /** What counting a sending of this answer takes (see DnsPlaneOptions.tallyOf). */
    readonly tally: AnswerTally | undefined,
  ) {}
}

export interface AnswerToKeep {
  bytes: Buffer;
  answered: Answered;
  maxSize: number;
  dnssecOk: boolean;
  /** The authority's generation, read when the answer was made. */
  generation: number;
  tally: AnswerTally | undefined;
}

const MAX_AGE_MS = 5000;
/** Longer queries carry options worth no entry (or are not queries at all): always answered afresh. */
const MAX_KEY_BYTES = 300;

export class AnswerCache {
  private readonly entries: BoundedMap<string, CachedAnswer>;

  constructor(
    private readonly authority: CacheableAuthority,
    size: number,
  ) {
    this.entries = new BoundedMap(size);
  }

  static usable(authority: CacheableAuthority, size: number): boolean {
    return size > 0 && typeof authority.generation === 'number';
  }

  keyOf(message: Buffer): string | undefined {
    return message.length >= 12 && message.length <= MAX_KEY_BYTES ? message.toString('latin1', 2) : undefined;
  }

  get(key: string, now: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.generation === this.authority.generation && now < entry.expires && this.zoneCurrent(entry)) return entry;
    this.entries.delete(key);
    return undefined;
  }

  private zoneCurrent(entry: CachedAnswer): boolean {
    return entry.zoneId < 0 || this.authority.zoneGeneration === undefined || this.authority.zoneGeneration(entry.zoneId) === entry.zoneGeneration;
  }

  /** Keeps `bytes` (copied: the caller sends its own) when the authority vouches for the answer. */
  offer(key: string, answer: AnswerToKeep, now: number): void {
    if ((answer.answered as CacheableAnswered).cacheable !== true) return;
    const zone = answer.answered.zone;
    const zoneId = zone === undefined ? -1 : zone.id;
    const zoneGeneration = zone === undefined ? -1 : (this.authority.zoneGeneration?.(zone.id) ?? -1);
    const { maxSize, dnssecOk, generation, tally } = answer;
    this.entries.set(key, new CachedAnswer(Buffer.from(answer.bytes), maxSize, dnssecOk, generation, zoneId, zoneGeneration, now + MAX_AGE_MS, tally));
  }

  /** A copy of the cached answer carrying the query's ID. */
  static answerTo(message: Buffer, entry: CachedAnswer): Buffer {
    const out = Buffer.allocUnsafe(entry.bytes.length);
    entry.bytes.copy(out);
    out[0] = message[0]!;
    out[1] = message[1]!;
    return out;
  }
}
