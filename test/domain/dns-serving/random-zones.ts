/**
 * Random zones and writes for the tests of what writes do to served answers (zone-edit.test.ts,
 * cache-across-writes.test.ts): names that come and go with the empty names above them,
 * wildcards, delegations with glue inside and outside the zone, CNAMEs, disabled, offline and
 * weighted records, apex NS, changed settings and signing keys.
 */
import fc from 'fast-check';
import { generateZoneSigningKey } from '../../../src/domain/dns/serving/dnssec.js';
import type { RecordChanges, ServedZone } from '../../../src/domain/dns/serving/types.js';
import type { DnsRecordRequestT, DnsRecordT } from '../../../src/schemas/dns.js';
import { type Decoded, rec, zone } from './helpers.js';

export const DOMAIN = 'example.com';
export const NAMES = ['', 'www', 'mail', 'a.b', 'b', 'x.a.b', 'sub', 'ns.sub', 'deep.in.sub', '*', '*.w', 'q.w', 'ns1', 'c'];
export const KEY = generateZoneSigningKey();

/** A record request of any served kind, valid for its type. */
export const request = fc.record({
  Name: fc.constantFrom(...NAMES),
  kind: fc.constantFrom('A', 'AAAA', 'CNAME', 'TXT', 'MX', 'NS', 'Redirect', 'Flatten', 'PullZone', 'Script'),
  n: fc.integer({ min: 1, max: 4 }),
  Weight: fc.constantFrom(0, 0, 1, 5),
  Disabled: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  offline: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
});
export type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;

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
export const write = fc.record({
  added: fc.array(request, { maxLength: 3 }),
  changed: fc.array(fc.tuple(fc.nat(), request), { maxLength: 2 }),
  removed: fc.array(fc.nat(), { maxLength: 2 }),
  settings: fc.option(fc.record({ customNs: fc.boolean(), signed: fc.boolean() }), { freq: 4 }),
});
export type Write = typeof write extends fc.Arbitrary<infer T> ? T : never;

/** The zone as ServedZones holds it: records by id in the zone's order, a serial moving per write. */
export class HeldZone {
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

/** An answer with its signatures' random and timed parts left out (ECDSA signs differently each time). */
export const unsigned = (answer: Decoded) =>
  JSON.parse(JSON.stringify(answer, (key, value: unknown) => (['signature', 'inception', 'expiration'].includes(key) ? 'signed' : value))) as unknown;

/** Weighted sets draw the same record in both authorities. */
export const DRAW = () => 0.37;
