/**
 * Which names each version of a zone changed, so that an answer kept by the DNS plane's packet
 * cache outlives writes that touched nothing it was made from: while records are written into a
 * zone, the rest of the zone stays cached instead of the whole zone being answered afresh.
 *
 * A write of a record at `t` can change the answer for a name `d` when:
 * - `d` is `t` or below it: `t`'s data, a delegation at `t`, `t` becoming the closest encloser
 *   of `d` (it no longer takes a wildcard's answer above it);
 * - `d` is above `t` and comes into or out of existence as an empty non-terminal; since that
 *   also changes what `d`'s other descendants match, every name above `t` (below the apex) is
 *   counted as changed, which covers both;
 * - `t` is a wildcard `*.p` and `d` is below `p`.
 * An answer depends on each name it looked up: the one asked, each link of a CNAME chain, the
 * name servers whose addresses a referral gives as glue. A write at the apex changes every answer
 * of the zone; every write moves the SOA serial, so answers carrying the SOA (negative answers,
 * SOA itself) never outlive one. A change of the zone's settings (name servers, SOA e-mail,
 * signing key, logging) changes everything.
 */
import type { DnsRecordT } from '../../../schemas/dns.js';
import { isWithin, ownerName, parentName } from './names.js';
import type { AnswerDependencies, RecordChanges, ServedZone } from './types.js';

/** Versions remembered per zone: an answer older than all of them is made afresh. */
const REMEMBERED = 64;

interface ZoneChange {
  generation: number;
  /** The names the version changed; undefined when anything may have. */
  names: readonly string[] | undefined;
}

export class ZoneChanges {
  private readonly log: ZoneChange[] = [];
  /** The newest generation dropped from the log: of an answer made before it, nothing can be told. */
  private forgotten = 0;

  add(generation: number, names: readonly string[] | undefined): void {
    this.log.push({ generation, names });
    if (this.log.length > REMEMBERED) this.forgotten = this.log.shift()!.generation;
  }

  /** Whether an answer made at `since` (the zone's generation then) still stands now. */
  unchangedSince(since: number, depends: AnswerDependencies): boolean {
    if (since < this.forgotten) return false;
    for (let i = this.log.length - 1; i >= 0; i--) {
      const change = this.log[i]!;
      if (change.generation <= since) return true;
      if (change.names === undefined || depends.serial) return false;
      for (const changed of change.names) for (const name of depends.names) if (related(name, changed)) return false;
    }
    return true;
  }
}

/** Whether a change at `changed` can change the answer for `name` (see above: the names above a change are listed with it). */
function related(name: string, changed: string): boolean {
  return isWithin(name, changed) || (changed.startsWith('*.') && isWithin(name, changed.slice(2)));
}

/**
 * The names a write changed in the zone `apex`, or undefined when it may have changed anything:
 * `changes` not told, or a setting of the zone other than its records and serial changed.
 */
export function changedNames(before: ServedZone, after: ServedZone, changes: RecordChanges | undefined, apex: string): string[] | undefined {
  if (changes === undefined || !sameSettings(before, after)) return undefined;
  const names = new Set<string>();
  const add = (record: DnsRecordT) => {
    const owner = ownerName(record.Name, apex);
    if (owner === apex) names.add(apex);
    for (let name: string | undefined = owner; name !== undefined && name !== apex && isWithin(name, apex); name = parentName(name)) names.add(name);
  };
  for (const record of changes.added) add(record);
  for (const record of changes.removed) add(record);
  for (const { before: old, after: now } of changes.changed) {
    add(old);
    add(now);
  }
  return [...names];
}

/**
 * Whether two versions of a zone serve the same but for their records and serial: every other
 * field compared, so a setting added to ServedZone later is not missed.
 */
function sameSettings(before: ServedZone, after: ServedZone): boolean {
  for (const key in before)
    if (key !== 'records' && key !== 'serial' && !sameValue(before[key as keyof ServedZone], after[key as keyof ServedZone])) return false;
  for (const key in after) if (!(key in before)) return false;
  return true;
}

/** Equal values, arrays and plain objects compared item by item (settings are small: no stringifying on every write). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key in x) {
    count++;
    if (!(key in y) || !sameValue(x[key], y[key])) return false;
  }
  for (const _ in y) count--;
  return count === 0;
}
