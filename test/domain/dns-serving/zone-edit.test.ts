/**
 * Editing a zone's index by what writes changed (zone-edit.ts) ends exactly where building the new
 * version afresh does: compared over random zones and random writes — names that come and go with
 * the empty names above them, wildcards, delegations and their glue, CNAMEs, disabled and weighted
 * records, apex NS, changed settings — both as indexes and as the answers an authority gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RRset } from '../../../src/domain/dns/serving/weighted.js';
import { generateZoneSigningKey } from '../../../src/domain/dns/serving/dnssec.js';
import { editZoneIndex } from '../../../src/domain/dns/serving/zone-edit.js';
import { buildZoneIndex, edgeAddresses, type ZoneIndex } from '../../../src/domain/dns/serving/zone-index.js';
import { systemClock } from '../../../src/domain/principal.js';
import { ask, authority, EDGE, rec, zone } from './helpers.js';
import { DOMAIN, DRAW, HeldZone, KEY, NAMES, request, unsigned, write } from './random-zones.js';

const OPTIONS = { ...edgeAddresses(EDGE), clock: systemClock };
/** Everything an index answers from, in a form two indexes can be compared by. */
function comparable(index: ZoneIndex) {
  const set = (rrset: RRset | undefined) =>
    rrset && {
      type: rrset.type,
      drawn: rrset.drawn,
      all: rrset.all,
      draws: rrset.drawn ? [0, 0.2, 0.5, 0.8, 0.99].map((x) => rrset.select(() => x)) : [],
    };
  const byOrder = (records: ZoneIndex['records']) => [...records.entries()].sort((x, y) => x[1].ordinal - y[1].ordinal).map(([id, { owner }]) => [id, owner]);
  return {
    apex: index.apex,
    zone: index.zone,
    soa: index.soa,
    negativeSoa: index.negativeSoa,
    soaKey: index.soaKey,
    hasCuts: index.hasCuts,
    cuts: [...index.cuts].map((node) => node.name).sort(),
    signed: index.signer !== undefined,
    records: byOrder(index.records),
    nodes: [...index.nodes.values()]
      .sort((x, y) => (x.name < y.name ? -1 : 1))
      .map((node) => ({
        name: node.name,
        types: node.types,
        children: node.children,
        records: node.records.map((placed) => placed.record.Id),
        rrsets: [...node.rrsets.values()].map(set),
        cname: set(node.cname),
        cut: node.cut && { ns: set(node.cut.ns), glue: node.cut.glue },
      })),
  };
}

describe('editing a zone index', () => {
  it('ends where a build of the new version does, over random zones and writes', () => {
    fc.assert(
      fc.property(
        fc.array(request, { maxLength: 12 }),
        fc.array(fc.array(write, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        (initial, batches) => {
          const held = new HeldZone(1);
          held.apply({ added: initial, changed: [], removed: [], settings: null });
          const index = buildZoneIndex(held.served(), OPTIONS);
          for (const batch of batches) {
            // Several writes between two queries reach the index together.
            const edits = batch.map((w) => held.apply(w));
            expect(editZoneIndex(index, held.served(), edits, OPTIONS)).toBe(true);
            expect(comparable(index)).toEqual(comparable(buildZoneIndex(held.served(), OPTIONS)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses, untouched, a version whose domain changed', () => {
    const served = zone(DOMAIN, [rec({ Type: 0, Name: 'www', Value: '192.0.2.1' })]);
    const index = buildZoneIndex(served, OPTIONS);
    const before = comparable(index);
    expect(editZoneIndex(index, { ...served, domain: 'example.org' }, [{ added: [], changed: [], removed: [] }], OPTIONS)).toBe(false);
    expect(comparable(index)).toEqual(before);
  });

  it('keeps the signer while the key stays, and changes it with the key', () => {
    const served = zone(DOMAIN, [], { dnssec: KEY });
    const index = buildZoneIndex(served, OPTIONS);
    const signer = index.signer;
    editZoneIndex(index, { ...served, serial: 2 }, [], OPTIONS);
    expect(index.signer).toBe(signer);
    editZoneIndex(index, { ...served, serial: 3, dnssec: generateZoneSigningKey() }, [], OPTIONS);
    expect(index.signer).toBeDefined();
    expect(index.signer).not.toBe(signer);
    editZoneIndex(index, { ...served, serial: 4, dnssec: undefined }, [], OPTIONS);
    expect(index.signer).toBeUndefined();
  });
});

describe('an authority told what each write changed', () => {
  const QUESTIONS = NAMES.flatMap((name) =>
    ['A', 'AAAA', 'CNAME', 'TXT', 'NS', 'MX', 'SOA'].map((type) => [name === '' ? DOMAIN : `${name.replace('*', 'star')}.${DOMAIN}`, type] as const),
  );

  it('answers as one given each version whole, with queries between some of the writes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(request, { maxLength: 10 }),
        fc.array(fc.tuple(write, fc.boolean()), { minLength: 1, maxLength: 10 }),
        async (initial, writes) => {
          const held = new HeldZone(7);
          held.apply({ added: initial, changed: [], removed: [], settings: null });
          const edited = authority([held.served()], { random: DRAW });
          await ask(edited, `www.${DOMAIN}`, 'A');
          for (const [w, queryAfter] of writes) {
            const changes = held.apply(w);
            edited.setZone(held.served(), changes);
            if (queryAfter) await ask(edited, `www.${DOMAIN}`, 'A');
          }
          const whole = authority([held.served()], { random: DRAW });
          for (const [name, type] of QUESTIONS) {
            for (const dnssec of [false, true]) {
              expect(unsigned(await ask(edited, name, type, { dnssec })), `${name} ${type}`).toEqual(unsigned(await ask(whole, name, type, { dnssec })));
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
