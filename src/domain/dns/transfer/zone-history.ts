/**
 * A zone's recent versions as IXFR (RFC 1995) sends them: the records each version removed and
 * added, from one snapshot to the next. Versions are those this instance built a snapshot of (every
 * serial it notified, every one a secondary transferred); a secondary at a serial not among them, or
 * one from so long ago that the differences would outweigh the zone, gets the whole zone instead
 * (RFC 1995 §4 lets a server answer an IXFR that way).
 */
import type { Encoded, ZoneSnapshot } from './zone-snapshot.js';

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
    const { removed, added } = differences(before, next);
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

/**
 * What `before` holds and `next` does not, and the other way round. Only the names whose records
 * are not the same array are compared; a record that moved from one name's list to another's (an
 * address that became a delegation's glue) is neither.
 */
function differences(before: ZoneSnapshot, next: ZoneSnapshot): { removed: Buffer[]; added: Buffer[] } {
  let removed: Encoded[] = [];
  let added: Encoded[] = [];
  for (const [name, segment] of next.segments) differencesInto(before.segments.get(name) ?? [], segment, removed, added);
  for (const [name, segment] of before.segments) if (!next.segments.has(name)) removed.push(...segment);
  if (removed.length > 0 && added.length > 0) {
    const removedKeys = new Set(removed.map((r) => r.key));
    const addedKeys = new Set(added.map((r) => r.key));
    removed = removed.filter((r) => !addedKeys.has(r.key));
    added = added.filter((r) => !removedKeys.has(r.key));
  }
  return { removed: removed.map((r) => r.wire), added: added.map((r) => r.wire) };
}

/** One name's records before and after: those gone to `removed`, those new to `added` (nothing when they are the same). */
function differencesInto(before: readonly Encoded[], after: readonly Encoded[], removed: Encoded[], added: Encoded[]): void {
  if (before === after || (before.length === after.length && before.every((record, i) => record === after[i]))) return;
  const beforeKeys = new Set(before.map((r) => r.key));
  const afterKeys = new Set(after.map((r) => r.key));
  for (const record of before) if (!afterKeys.has(record.key)) removed.push(record);
  for (const record of after) if (!beforeKeys.has(record.key)) added.push(record);
}
