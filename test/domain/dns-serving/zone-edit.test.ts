/**
 * Editing a zone's index by what writes changed (zone-edit.ts) ends exactly where building the new
 * version afresh does: compared over random zones and random writes — names that come and go with
 * the empty names above them, wildcards, delegations and their glue, CNAMEs, disabled and weighted
 * records, apex NS, changed settings — both as indexes and as the answers an authority gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DnsRecordRequestT, DnsRecordT } from '../../../src/schemas/dns.js';
import { generateZoneSigningKey } from '../../../src/domain/dns/serving/dnssec.js';
import type { RecordChanges, ServedZone } from '../../../src/domain/dns/serving/types.js';
import type { RRset } from '../../../src/domain/dns/serving/weighted.js';
import { editZoneIndex } from '../../../src/domain/dns/serving/zone-edit.js';
import { buildZoneIndex, edgeAddresses, type ZoneIndex } from '../../../src/domain/dns/serving/zone-index.js';
import { systemClock } from '../../../src/domain/principal.js';
import { ask, authority, type Decoded, EDGE, rec, zone } from './helpers.js';

const OPTIONS = { ...edgeAddresses(EDGE), clock: systemClock };
const DOMAIN = 'example.com';
const NAMES = ['', 'www', 'mail', 'a.b', 'b', 'x.a.b', 'sub', 'ns.sub', 'deep.in.sub', '*', '*.w', 'q.w', 'ns1', 'c'];
const KEY = generateZoneSigningKey();

/** A record request of any served kind, valid for its type. */
const request = fc.record({
  Name: fc.constantFrom(...NAMES),
  kind: fc.constantFrom('A', 'AAAA', 'CNAME', 'TXT', 'MX', 'NS', 'Redirect', 'Flatten', 'PullZone', 'Script'),
  n: fc.integer({ min: 1, max: 4 }),
  Weight: fc.constantFrom(0, 0, 1, 5),
  Disabled: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  offline: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
});
type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;

function recordOf(r: Request, id?: number): DnsRecordT {
  const values: Record<Request['kind'], DnsRecordRequestT> = {
    A: { Type: 0, Value: `192.0.2.${r.n}` },
    AAAA: { Type: 1, Value: `2001:db8::${r.n}` },
    CNAME: { Type: 2, Value: ['www.example.com', 'c.example.com', 'elsewhere.net', 'b.example.com'][r.n - 1] },
    TXT: { Type: 3, Value: `text ${r.n}` },
    MX: { Type: 4, Value: `mx${r.n}.example.com`, Priority: r.n },
    NS: { Type: 12, Value: ['ns.sub.example.com', 'ns1.example.com', 'ns.elsewhere.net', 'deep.in.sub.example.com'][r.n - 1] },
    Redirect: { Type: 5, Value: 'https://example.net/' },
    Flatten: { Type: 6, Value: 'www.example.com' },
    PullZone: { Type: 7, Value: 'zone' },
    Script: { Type: 11, Value: '' },
  };
  const value = values[r.kind];
  const made = rec({ ...value, Name: r.Name, Weight: r.Weight, Disabled: r.Disabled }, r.offline ? { MonitorStatus: 2 } : {});
  return id === undefined ? made : { ...made, Id: id };
}

/** One write: records added, changed (by position among those held), removed; maybe new settings. */
const write = fc.record({
  added: fc.array(request, { maxLength: 3 }),
  changed: fc.array(fc.tuple(fc.nat(), request), { maxLength: 2 }),
  removed: fc.array(fc.nat(), { maxLength: 2 }),
  settings: fc.option(fc.record({ customNs: fc.boolean(), signed: fc.boolean() }), { freq: 4 }),
});
type Write = typeof write extends fc.Arbitrary<infer T> ? T : never;

/** The zone as ServedZones holds it: records by id in the zone's order, a serial moving per write. */
class HeldZone {
  readonly records = new Map<number, DnsRecordT>();
  settings: Partial<ServedZone> = {};
  serial = 1;
  constructor(readonly id: number) {}

  served(): ServedZone {
    return { ...zone(DOMAIN, [...this.records.values()], { serial: this.serial, ...this.settings }), id: this.id };
  }

  apply(w: Write): RecordChanges {
    const ids = [...this.records.keys()];
    const removed = [...new Set(w.removed.filter(() => ids.length > 0).map((i) => ids[i % ids.length]!))].map((id) => this.records.get(id)!);
    for (const r of removed) this.records.delete(r.Id);
    const left = [...this.records.keys()];
    const changed = [...new Map(w.changed.filter(() => left.length > 0).map(([i, r]) => [left[i % left.length]!, r])).entries()].map(([id, r]) => ({
      before: this.records.get(id)!,
      after: recordOf(r, id),
    }));
    for (const { after } of changed) this.records.set(after.Id, after);
    const added = w.added.map((r) => recordOf(r));
    for (const r of added) this.records.set(r.Id, r);
    if (w.settings) {
      this.settings = {
        ...(w.settings.customNs ? { nameservers: ['ns1.example.com', 'ns.other.net'] } : {}),
        ...(w.settings.signed ? { dnssec: KEY } : {}),
      };
    }
    this.serial++;
    return { added, changed, removed };
  }
}

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

/** An answer with its signatures' random and timed parts left out (ECDSA signs differently each time). */
const unsigned = (answer: Decoded) =>
  JSON.parse(JSON.stringify(answer, (key, value: unknown) => (['signature', 'inception', 'expiration'].includes(key) ? 'signed' : value))) as unknown;

/** Weighted sets draw the same record in both authorities. */
const DRAW = () => 0.37;

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
