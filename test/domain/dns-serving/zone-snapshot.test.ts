/**
 * A zone transfer's snapshot made from the one before it (the names' order and the unsigned names'
 * records kept) holds what a snapshot built afresh holds, and the history's difference between two
 * versions is what one holds and the other does not, over random zones and writes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editZoneIndex } from '../../../src/domain/dns/serving/zone-edit.js';
import { buildZoneIndex, edgeAddresses } from '../../../src/domain/dns/serving/zone-index.js';
import { ZoneHistory } from '../../../src/domain/dns/transfer/zone-history.js';
import { buildSnapshot, type ZoneSnapshot } from '../../../src/domain/dns/transfer/zone-snapshot.js';
import { systemClock } from '../../../src/domain/principal.js';
import { EDGE } from './helpers.js';
import { HeldZone, KEY, request, write } from './random-zones.js';

const OPTIONS = { ...edgeAddresses(EDGE), clock: systemClock };
const NOW = 1_800_000_000;
/** The records as a secondary sees them; RRSIGs by what they cover (ECDSA signatures differ from one signing to the next). */
const wires = (snapshot: ZoneSnapshot) =>
  snapshot.records.map((r) => (r.wire.readUInt16BE(r.wire.indexOf(0) + 1) === 46 ? r.wire.subarray(0, r.wire.indexOf(0) + 19) : r.wire).toString('hex'));
const minus = (a: ZoneSnapshot, b: ZoneSnapshot) => {
  const held = new Set(b.records.map((r) => r.key));
  return a.records
    .filter((r) => !held.has(r.key))
    .map((r) => r.key)
    .sort();
};

describe("a zone transfer's snapshots", () => {
  for (const signed of [false, true]) {
    it(`made from the one before, ${signed ? 'signed' : 'unsigned'}: the records of a fresh build, the difference of the two`, () => {
      fc.assert(
        fc.property(
          fc.array(request, { maxLength: 12 }),
          fc.array(fc.array(write, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }),
          (initial, batches) => {
            const held = new HeldZone(1);
            held.apply({ added: initial, changed: [], removed: [], settings: null });
            const served = () => ({ ...held.served(), ...(signed ? { dnssec: KEY } : {}) });
            const index = buildZoneIndex(served(), OPTIONS);
            const history = new ZoneHistory(buildSnapshot(index, NOW));
            for (const batch of batches) {
              const edits = batch.map((w) => held.apply(w));
              editZoneIndex(index, served(), edits, OPTIONS);
              const before = history.current;
              const next = buildSnapshot(index, NOW, before);
              history.advance(next);
              expect(wires(next)).toEqual(wires(buildSnapshot(buildZoneIndex(served(), OPTIONS), NOW)));
              const [difference] = history.since(before.serial) ?? [];
              if (before.serial === next.serial) continue;
              expect(difference!.removed.map((w) => w.toString('latin1')).sort()).toEqual(minus(before, next));
              expect(difference!.added.map((w) => w.toString('latin1')).sort()).toEqual(minus(next, before));
            }
          },
        ),
        { numRuns: signed ? 25 : 80 },
      );
    });
  }
});
