/**
 * The edge's cache: whole answers in memory, bounded by bytes (`EDGEPLANE_EDGE_CACHE_BYTES`), the
 * least recently used going first. A Map keeps insertion order, so moving an entry to the end on
 * each hit makes its first key the least recently used one.
 *
 * An entry stays after it expires, until space is needed: an expired copy is what
 * `UseStaleWhileUpdating` and `UseStaleWhileOffline` serve, and what a revalidation refreshes.
 * Each zone's keys are indexed, so a zone purged or changed beyond recognition drops its entries at
 * once rather than waiting for them to age out.
 *
 * An answer the origin varies (`Vary`, key.ts) is kept under its variant's key, and the cache
 * remembers, for the plain key, which request headers its variants differ by: a lookup that finds
 * nothing under the plain key asks `variesBy` and looks again under the variant's key. What is
 * remembered goes with the last variant of the key, so it is bounded by the entries.
 *
 * What the edge makes from a copy and keeps with it (its compressed forms, compression/) is
 * charged to the copy (`charge`): counted in the cache's size, and gone with the copy.
 */
import type { Purgeable } from '../purge/purge-log.js';

export interface CachedAnswer extends Purgeable {
  zoneId: number;
  status: number;
  /** Lower-case names, as the origin sent them (cookies already stripped when DisableCookies). */
  headers: Record<string, string | string[]>;
  body: Buffer;
  storedAt: number;
  /** Fresh until then (ms); stale after. */
  expiresAt: number;
  etag: string | undefined;
  lastModified: Date | undefined;
  /** Set on an answer the origin varies by headers the plain key leaves out: that key, and those headers. */
  variantOf?: { key: string; names: readonly string[] } | undefined;
  /** Bytes kept beside the body for this copy (its compressed forms), charged once they are made. */
  besideBytes?: number;
  /** The cache's own: its count of moves to the newest end when this entry was last moved there. */
  movedAt?: number;
}

/** What an entry costs beyond its body: the key, the headers, the bookkeeping. */
const OVERHEAD_BYTES = 512;

export class EdgeCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private readonly byZone = new Map<number, Set<string>>();
  /** Plain key → the headers its variants differ by, and how many variants are kept. */
  private readonly variants = new Map<string, { names: readonly string[]; count: number }>();
  private used = 0;
  /** Entries put at the newest end so far (set, or moved by a hit). */
  private moves = 0;
  /** The copies held now, whatever their key (a copy charged after it was dropped is not counted). */
  private held = new WeakSet<CachedAnswer>();

  constructor(readonly maxBytes: number) {}

  /** The largest answer worth keeping: one answer may not push out more than an eighth of the cache. */
  get maxEntryBytes(): number {
    return Math.floor(this.maxBytes / 8);
  }

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The request headers the answers kept for this plain key vary by, when they vary (key.ts variantKeyOf). */
  variesBy(key: string): readonly string[] | undefined {
    return this.variants.get(key)?.names;
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Fewer moves than a quarter of the entries since its own: among the newest quarter, left there (exact below 8 entries).
    if (this.moves - (entry.movedAt ?? 0) >= Math.max(1, this.entries.size >> 2)) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.movedAt = ++this.moves;
    }
    return entry;
  }

  set(key: string, entry: CachedAnswer): boolean {
    const cost = costOf(key, entry);
    if (cost > this.maxEntryBytes) return false;
    this.delete(key);
    const variantOf = entry.variantOf;
    // A plain answer kept from before the origin began to vary would be found first, and hide the variants.
    if (variantOf) this.delete(variantOf.key);
    this.evictBeyond(this.maxBytes - cost);
    this.entries.set(key, entry);
    entry.movedAt = ++this.moves;
    this.held.add(entry);
    this.used += cost;
    let keys = this.byZone.get(entry.zoneId);
    if (!keys) this.byZone.set(entry.zoneId, (keys = new Set()));
    keys.add(key);
    if (variantOf) {
      const known = this.variants.get(variantOf.key);
      if (known) {
        known.names = variantOf.names;
        known.count++;
      } else this.variants.set(variantOf.key, { names: variantOf.names, count: 1 });
    }
    return true;
  }

  /**
   * Counts `bytes` more for a copy, kept beside its body (compression/): the least recently used
   * copies make room, as for a new one. False when the copy is no longer held (dropped meanwhile, or
   * never kept): nothing is counted then.
   */
  charge(entry: CachedAnswer, bytes: number): boolean {
    if (!this.held.has(entry)) return false;
    entry.besideBytes = (entry.besideBytes ?? 0) + bytes;
    this.used += bytes;
    this.evictBeyond(this.maxBytes);
    return true;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.held.delete(entry);
    this.used -= costOf(key, entry);
    const keys = this.byZone.get(entry.zoneId);
    keys?.delete(key);
    if (keys?.size === 0) this.byZone.delete(entry.zoneId);
    if (entry.variantOf) {
      const known = this.variants.get(entry.variantOf.key);
      if (known && --known.count <= 0) this.variants.delete(entry.variantOf.key);
    }
  }

  /** Drops the zone's entries that `matches` (all of them without it). */
  dropZone(zoneId: number, matches?: (entry: CachedAnswer) => boolean): number {
    const keys = this.byZone.get(zoneId);
    if (!keys) return 0;
    let dropped = 0;
    for (const key of [...keys]) {
      const entry = this.entries.get(key);
      if (entry && (!matches || matches(entry))) {
        this.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  clear(): void {
    this.entries.clear();
    this.held = new WeakSet();
    this.byZone.clear();
    this.variants.clear();
    this.used = 0;
  }

  /** Drops the least recently used copies until at most `bytes` are used. */
  private evictBeyond(bytes: number): void {
    while (this.used > bytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
  }
}

const costOf = (key: string, entry: CachedAnswer) => entry.body.length + (entry.besideBytes ?? 0) + key.length + OVERHEAD_BYTES;
