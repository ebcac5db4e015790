/**
 * What a zone transfer sends, per zone: a snapshot of its current version (built when a transfer or
 * a NOTIFY first needs it after a change, then kept) and the history IXFR answers from. Also
 * tells who listens (the NOTIFY sender) when a zone's serial moves, whichever instance wrote.
 */
import type { Clock } from '../../principal.js';
import type { ServingAuthority } from '../serving/authority.js';
import { hostName } from '../serving/names.js';
import type { ServedZone } from '../serving/types.js';
import { ZoneHistory, type ZoneDifference } from './zone-history.js';
import { buildSnapshot, type ZoneSnapshot } from './zone-snapshot.js';

export type Changes =
  /** The secondary has the current version: the answer is the SOA alone. */
  | { kind: 'current'; snapshot: ZoneSnapshot }
  | { kind: 'differences'; snapshot: ZoneSnapshot; differences: ZoneDifference[] }
  /** The history does not reach back: the whole zone. */
  | { kind: 'whole'; snapshot: ZoneSnapshot };

export class ZoneTransfers {
  private readonly histories = new Map<number, ZoneHistory>();

  constructor(
    private readonly authority: ServingAuthority,
    private readonly clock: Clock,
  ) {
    authority.onSerialMoved.push((zone) => {
      for (const listener of this.onSerialMoved) listener(zone);
    });
    authority.onRemoved.push((id) => this.histories.delete(id));
  }

  /** Told when a zone's serial moves (not at its first load). */
  readonly onSerialMoved: ((zone: ServedZone) => void)[] = [];

  /** The zone whose apex is `name`, at its current version; undefined when no zone has that apex. */
  snapshot(name: string): ZoneSnapshot | undefined {
    const index = this.authority.indexAtApex(hostName(name));
    if (!index) return undefined;
    const now = Math.floor(this.clock().getTime() / 1000);
    const history = this.histories.get(index.zone.id);
    const current = history?.current;
    if (history && current && current.apex === index.apex && current.serial === index.zone.serial >>> 0) return current;
    const next = buildSnapshot(index, now, current?.apex === index.apex ? current : undefined);
    if (history && current?.apex === index.apex) history.advance(next);
    else this.histories.set(index.zone.id, new ZoneHistory(next));
    return next;
  }

  /** What a secondary at `serial` needs to reach the current version (RFC 1995). */
  changesSince(name: string, serial: number): Changes | undefined {
    const snapshot = this.snapshot(name);
    if (!snapshot) return undefined;
    if (serial === snapshot.serial || serialAfter(serial, snapshot.serial)) return { kind: 'current', snapshot };
    const differences = this.histories.get(snapshot.zoneId)?.since(serial);
    return differences ? { kind: 'differences', snapshot, differences } : { kind: 'whole', snapshot };
  }
}

/** RFC 1982 serial arithmetic: whether `a` is after `b`. */
export function serialAfter(a: number, b: number): boolean {
  const difference = (a - b + 2 ** 32) % 2 ** 32;
  return difference !== 0 && difference < 2 ** 31;
}
