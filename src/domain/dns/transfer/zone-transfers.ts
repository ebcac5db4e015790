/**
 * What a zone transfer sends, per zone: a snapshot of its current version (built when a transfer or
 * a NOTIFY first needs it after a change, then kept) and the history IXFR answers from. Also
 * tells who listens (the NOTIFY sender) when a zone's serial moves, whichever instance wrote.
 */
import type { Clock } from '../../principal.js';
import type { ServingAuthority } from '../serving/authority.js';
import { hostName } from '../serving/names.js';
import { RESIGN_AFTER } from '../serving/signer.js';
import type { ServedZone } from '../serving/types.js';
import { ZoneHistory, type ZoneDifference } from './zone-history.js';
import { buildSnapshot, type ZoneSnapshot } from './zone-snapshot.js';

export type Changes =
  /** The secondary has the current version: the answer is the SOA alone. */
  | { kind: 'current'; snapshot: ZoneSnapshot }
  | { kind: 'differences'; snapshot: ZoneSnapshot; differences: ZoneDifference[] }
  /** The history does not reach back: the whole zone. */
  | { kind: 'whole'; snapshot: ZoneSnapshot };

/** Writes a zone again without changing it: its serial moves (and with it what secondaries hold). */
export type TouchZone = (zoneId: number, accountId: number) => Promise<void>;

export class ZoneTransfers {
  private readonly histories = new Map<number, ZoneHistory>();

  constructor(
    private readonly authority: ServingAuthority,
    private readonly clock: Clock,
    private readonly touch?: TouchZone,
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

  /** The current snapshots of signed zones whose oldest signature is due to be made again. */
  dueForSigning(): ZoneSnapshot[] {
    const now = Math.floor(this.clock().getTime() / 1000);
    return [...this.histories.values()].map((h) => h.current).filter((s) => s.signedAt !== undefined && now - s.signedAt >= RESIGN_AFTER);
  }

  async touchZone(zoneId: number, accountId: number): Promise<void> {
    await this.touch?.(zoneId, accountId);
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

/**
 * Signatures a secondary holds age while the zone does not change: each signed zone whose
 * transferred signatures are over RESIGN_AFTER old is written again (a new serial, so the
 * secondaries transfer it, NOTIFY telling them), and its next snapshot signs afresh. Run
 * periodically by the DNS plane while it has secondaries; zones no transfer asked for are left alone.
 */
export async function refreshSignatures(transfers: ZoneTransfers, onError: (error: unknown) => void): Promise<number> {
  let touched = 0;
  for (const snapshot of transfers.dueForSigning()) {
    try {
      await transfers.touchZone(snapshot.zoneId, snapshot.accountId);
      touched++;
    } catch (error) {
      onError(error);
    }
  }
  return touched;
}

/** RFC 1982 serial arithmetic: whether `a` is after `b`. */
export function serialAfter(a: number, b: number): boolean {
  const difference = (a - b + 2 ** 32) % 2 ** 32;
  return difference !== 0 && difference < 2 ** 31;
}
