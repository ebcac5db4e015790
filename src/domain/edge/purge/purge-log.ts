/**
 * URL purges travel with the zone document, so every instance learns of them the way it learns of
 * any other change to the zone: through the store's change feed. The zone keeps the latest
 * `MAX_PURGES` patterns, each with a sequence number, in fields no answer shows (the response
 * schema leaves them out). A cached answer remembers the last sequence its zone had when its fetch
 * began; it counts as absent when a later purge matches it, so an answer whose fetch raced a purge
 * is never served. An instance that missed purges which have since left the list (more than
 * `MAX_PURGES` in between) cannot tell which answers they matched: every answer older than the
 * oldest purge still listed (`EdgePurgeFloor`) counts as absent, which over-purges but never serves
 * a purged answer.
 *
 * A pattern is a path, `*` standing for any run of characters. Without `?` it matches the path
 * whatever the query; with `?` it matches path and query (the query as the cache key keeps it).
 */
import type { EdgeZone } from '../types.js';

export const MAX_PURGES = 200;

export interface PurgeEntry {
  Seq: number;
  Pattern: string;
}

/** A pull zone as stored: the API's fields, plus the URL purges only the edge reads. */
export type StoredPullZone = EdgeZone & {
  EdgePurges?: PurgeEntry[];
  /** The sequence of the last purge made. */
  EdgePurgeSeq?: number;
  /** Answers whose fetch began before this sequence count as absent. */
  EdgePurgeFloor?: number;
};

/** The zone with one more purge of `pattern`, the list kept to its bound. */
export function withPurge(zone: StoredPullZone, pattern: string): StoredPullZone {
  const seq = (zone.EdgePurgeSeq ?? 0) + 1;
  const purges = [...(zone.EdgePurges ?? []), { Seq: seq, Pattern: pattern }];
  let floor = zone.EdgePurgeFloor ?? 0;
  while (purges.length > MAX_PURGES) floor = purges.shift()!.Seq;
  return { ...zone, EdgePurges: purges, EdgePurgeSeq: seq, EdgePurgeFloor: floor };
}

interface CompiledPurge {
  seq: number;
  withQuery: boolean;
  match: RegExp;
}

/** What a cached answer must say about itself to be checked against the purges. */
export interface Purgeable {
  /** The zone's purge sequence when the answer's fetch began. */
  purgeSeq: number;
  path: string;
  query: string;
}

export class PurgeLog {
  readonly seq: number;
  private readonly floor: number;
  private readonly purges: CompiledPurge[];

  constructor(zone: StoredPullZone) {
    this.seq = zone.EdgePurgeSeq ?? 0;
    this.floor = zone.EdgePurgeFloor ?? 0;
    this.purges = (zone.EdgePurges ?? []).map((p) => ({ seq: p.Seq, withQuery: p.Pattern.includes('?'), match: patternRegExp(p.Pattern) }));
  }

  /** Whether a purge made after the answer's fetch began covers it. */
  covers(entry: Purgeable): boolean {
    if (entry.purgeSeq >= this.seq) return false;
    if (entry.purgeSeq < this.floor) return true;
    for (const purge of this.purges) {
      if (purge.seq <= entry.purgeSeq) continue;
      if (purge.match.test(purge.withQuery ? `${entry.path}?${entry.query}` : entry.path)) return true;
    }
    return false;
  }
}

export function patternRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}
