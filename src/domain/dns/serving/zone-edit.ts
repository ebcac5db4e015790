/**
 * A zone's index brought to the zone's next version by what a write changed, instead of built
 * again: the cost of a write to the DNS plane then follows the write, not the zone (a zone of
 * 10,000 records takes ~50 ms to build; editing one record, microseconds). Only the names owning
 * a changed record are made again, with the apex (its SOA serial moves with every write); a name
 * left with neither records nor names below it is removed, with the empty names above it; every
 * delegation's glue is taken again (it follows addresses anywhere in the zone). The index ends as
 * a build of the new version would make it (test/domain/dns-serving/zone-edit.test.ts compares the two
 * over random zones and edits).
 *
 * The index is edited in place: the authority keeps one index per zone and hands out no other
 * reference that outlives a query.
 */
import { hostName, parentName } from './names.js';
import { ZoneSigner } from './signer.js';
import type { RecordChanges, ServedZone } from './types.js';
import { type IndexOptions, type NameNode, placeRecord, renderGlue, renderNode, signingKeyOf, type ZoneIndex } from './zone-index.js';

/** Records changed by `edits`, each counted once per edit it is in. */
export function changedRecords(edits: readonly RecordChanges[]): number {
  let count = 0;
  for (const edit of edits) count += edit.added.length + edit.changed.length + edit.removed.length;
  return count;
}

/**
 * Applies `edits` (in order) to `index`, built for the zone's version before them, so that it
 * serves `zone`. False, with the index untouched, when the edits cannot carry it there (the zone's
 * domain changed): it must be built again.
 */
export function editZoneIndex(index: ZoneIndex, zone: ServedZone, edits: readonly RecordChanges[], options: IndexOptions): boolean {
  if (hostName(zone.domain) !== index.apex) return false;
  const before = index.zone.dnssec;
  const after = zone.dnssec;
  if (before?.privateKeyPem !== after?.privateKeyPem || before?.flags !== after?.flags) {
    const key = signingKeyOf(zone);
    index.signer = key && new ZoneSigner(index.apex, key, options.clock);
  }
  index.zone = zone;

  const touched = new Set<string>([index.apex]);
  const place = (record: RecordChanges['added'][number], ordinal: number) => {
    const owner = placeRecord(index, record, ordinal);
    if (owner !== undefined) touched.add(owner);
  };
  for (const edit of edits) {
    for (const record of edit.removed) unplace(index, record.Id, touched);
    for (const { before: old, after: now } of edit.changed) place(now, unplace(index, old.Id, touched) ?? index.nextOrdinal++);
    // A write applied twice adds nothing twice.
    for (const record of edit.added) place(record, unplace(index, record.Id, touched) ?? index.nextOrdinal++);
  }

  for (const name of touched) {
    const node = index.nodes.get(name);
    if (node === undefined) continue;
    if (node.records.length === 0 && node.children === 0 && name !== index.apex) removeNode(index, node);
    else renderNode(index, node, options);
  }
  index.hasCuts = index.cuts.size > 0;
  renderGlue(index);
  return true;
}

/** Takes a record off its name (noting the name as touched); its place in the zone's order, or undefined for a record not held. */
function unplace(index: ZoneIndex, id: number, touched: Set<string>): number | undefined {
  const held = index.records.get(id);
  if (held === undefined) return undefined;
  index.records.delete(id);
  if (held.owner !== undefined) {
    const node = index.nodes.get(held.owner);
    if (node) node.records = node.records.filter((placed) => placed.record.Id !== id);
    touched.add(held.owner);
  }
  return held.ordinal;
}

/** Removes a name that no longer exists, and each name above it left empty by that. */
function removeNode(index: ZoneIndex, node: NameNode): void {
  index.nodes.delete(node.name);
  index.cuts.delete(node);
  const parent = index.nodes.get(parentName(node.name)!)!;
  parent.children--;
  if (parent.children === 0 && parent.records.length === 0 && parent.name !== index.apex) removeNode(index, parent);
}
