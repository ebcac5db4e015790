/**
 * A zone's recent versions as IXFR (RFC 1995) sends them: the records each version removed and
 * added, from one snapshot to the next. Versions are those this instance built a snapshot of (every
 * serial it notified, every one a secondary transferred); a secondary at a serial not among them, or
 * one from so long ago that the differences would outweigh the zone, gets the whole zone instead
 * (RFC 1995 §4 lets a server answer an IXFR that way).
 */
import type { ZoneSnapshot } from './zone-snapshot.js';

export interface ZoneDifference {
  from: number;
  fromSoa: Buffer;
  to: number;
  toSoa: Buffer;
  removed: Buffer[];
  added: Buffer[];
}

/** Versions kept at most, whatever their size. */
const MAX_DIFFERENCES = 200;

export class ZoneHistory {
  /** Oldest first; each one's `to` is the next one's `from`, the last one's `to` the current serial. */
  private differences: ZoneDifference[] = [];
  private changedRecords = 0;

  constructor(public current: ZoneSnapshot) {}

  /** Moves to `next`, a later version of the same zone. */
  advance(next: ZoneSnapshot): void {
    const before = this.current;
    const removed = before.records.filter((r) => !next.keys.has(r.key)).map((r) => r.wire);
    const added = next.records.filter((r) => !before.keys.has(r.key)).map((r) => r.wire);
    this.differences.push({ from: before.serial, fromSoa: before.soa, to: next.serial, toSoa: next.soa, removed, added });
    this.changedRecords += removed.length + added.length;
    this.current = next;
    // Differences longer than the zone itself are worth less than the zone: the oldest go first.
    while (this.differences.length > MAX_DIFFERENCES || (this.differences.length > 1 && this.changedRecords > next.records.length + 64)) {
      const dropped = this.differences.shift()!;
      this.changedRecords -= dropped.removed.length + dropped.added.length;
    }
  }

  /** The differences from `serial` to the current version; undefined when the history does not reach back to it. */
  since(serial: number): ZoneDifference[] | undefined {
    const start = this.differences.findIndex((d) => d.from === serial);
    return start === -1 ? undefined : this.differences.slice(start);
  }
}
