/**
 * A zone as a secondary receives it (AXFR, RFC 5936): every RRset it serves, in wire form, and for
 * a signed zone what lets a secondary serve it signed on its own: an RRSIG over every
 * authoritative RRset and a complete NSEC chain (RFC 4034 §4), names in canonical order (§6.1).
 * Answers to queries deny with compact NSECs made on the spot (serving/denial.ts); a secondary
 * cannot make them, so the transfer carries the chain instead.
 *
 * What cannot be written down as static data is left out: a Flatten target's addresses, looked up
 * per query (a Flatten name transfers with its other types only), and the weighted draw: a
 * weighted set transfers with all its records (a CNAME set with its first), as plain DNS serves
 * them. Delegations transfer their NS and glue, unsigned, as RFC 4035 §2.2 has it.
 *
 * Signatures are kept from one snapshot to the next for the RRsets that did not change, while
 * they are younger than RESIGN_AFTER: a change re-signs what it touched, not the zone. The names'
 * canonical order is kept too (a change sorts in the names it added), and an unsigned name's
 * records while it is not rendered again, so that the next version of a large zone after a write
 * costs a walk over its names, not a sort and an encoding of its records.
 */
import dnsPacket, { type Answer } from 'dns-packet';
import { isWithin, parentName } from '../serving/names.js';
import { RESIGN_AFTER, typeCode } from '../serving/signer.js';
import { NEGATIVE_TTL } from '../serving/soa.js';
import type { RR, RRset } from '../serving/weighted.js';
import type { NameNode, ZoneIndex } from '../serving/zone-index.js';

const codec = dnsPacket as unknown as { answer: { encode(a: Answer): Buffer } };

/** A record in wire form, and as a binary string (what two snapshots are compared by). */
export interface Encoded {
  wire: Buffer;
  key: string;
}

interface KeptSignature extends Encoded {
  signedAt: number;
}

/**
 * What one snapshot keeps for the next: an RRset a change did not touch is the same object in the
 * next index (zone-edit.ts renders only the names it changed), so its records are not encoded
 * again; NSECs and signatures are kept by what they say.
 */
interface Kept {
  rrsets: WeakMap<object, Encoded[]>;
  nsecs: Map<string, Encoded>;
  signatures: Map<string, KeptSignature>;
  /** Every name of the index in canonical order (those below a delegation included). */
  order: NameNode[];
  /** An unsigned name's records, by its `rrsets` (a new map each time the name is rendered again). */
  names: WeakMap<object, Encoded[]>;
}

export interface ZoneSnapshot {
  zoneId: number;
  accountId: number;
  apex: string;
  serial: number;
  /** The SOA, first and last of a transfer, and as a record (a NOTIFY carries it). */
  soa: Buffer;
  soaRecord: RR;
  /** Every other record (the SOA's RRSIG included), in canonical order. */
  records: Encoded[];
  /**
   * The same records by owner name (the SOA's RRSIG with the apex's): two snapshots' differences
   * (IXFR) are looked for only where a name's list is not the same array.
   */
  segments: Map<string, Encoded[]>;
  /** When its oldest signature was made (seconds); undefined for an unsigned zone. */
  signedAt?: number;
  kept: Kept;
}

export function buildSnapshot(index: ZoneIndex, now: number, previous?: ZoneSnapshot): ZoneSnapshot {
  const apex = index.apex;
  const signer = index.signer;
  const before = previous?.kept;
  const order = canonicalOrder(index, before?.order);
  const kept: Kept = { rrsets: before?.rrsets ?? new WeakMap(), nsecs: new Map(), signatures: new Map(), order, names: before?.names ?? new WeakMap() };
  let signedAt: number | undefined;
  const sign = (owner: string, type: string, ttl: number, answers: readonly RR[], content: string): Encoded => {
    const key = `${owner}|${type}|${ttl}|${content}`;
    let signature = before?.signatures.get(key);
    if (!signature || now - signature.signedAt >= RESIGN_AFTER || now < signature.signedAt)
      signature = { ...encoded(signer!.signUncached(owner, type, ttl, answers)), signedAt: now };
    kept.signatures.set(key, signature);
    signedAt = signedAt === undefined ? signature.signedAt : Math.min(signedAt, signature.signedAt);
    return signature;
  };
  const encodedOf = (of: object, make: () => RR[]): Encoded[] => {
    let list = kept.rrsets.get(of);
    if (!list) kept.rrsets.set(of, (list = make().map(encoded)));
    return list;
  };

  const names = index.hasCuts ? order.filter((node) => !belowCut(index, node)) : order;
  // Names that own data (or a delegation): the NSEC chain links them; empty non-terminals have none.
  const owners = names.filter((node) => node.name === apex || node.records.length > 0);
  const records: Encoded[] = [];
  const segments = new Map<string, Encoded[]>();
  for (let i = 0; i < owners.length; i++) {
    const node = owners[i]!;
    const delegation = node.cut && node.name !== apex ? node.cut : undefined;
    let segment = signer || delegation ? undefined : kept.names.get(node.rrsets);
    if (!segment) {
      segment = [];
      if (signer && node.name === apex) segment.push(sign(apex, 'SOA', index.soa.ttl ?? 0, [index.soa], index.soaKey));
      const types: string[] = node.name === apex ? ['SOA'] : [];
      for (const [type, rrset, answers, ttl, content] of rrsetsOf(index, node)) {
        types.push(type);
        segment.push(...encodedOf(rrset, () => answers.map((answer) => ({ ...answer, name: node.name, ttl, class: 'IN' }) as RR)));
        if (signer && !delegation) segment.push(sign(node.name, type, ttl, answers, content));
      }
      if (delegation) segment.push(...encodedOf(delegation.glue, () => gluesOf(node)));
      if (signer) {
        const next = owners[(i + 1) % owners.length]!.name;
        const rrtypes = [...new Set([...types, 'RRSIG', 'NSEC'])].sort((a, b) => typeCode(a) - typeCode(b));
        const content = `${next}|${rrtypes.join()}`;
        const nsec: RR = { name: node.name, type: 'NSEC', class: 'IN', ttl: NEGATIVE_TTL, data: { nextDomain: next, rrtypes } };
        const nsecKey = `${node.name}|${content}`;
        const nsecRecord = before?.nsecs.get(nsecKey) ?? encoded(nsec);
        kept.nsecs.set(nsecKey, nsecRecord);
        segment.push(nsecRecord, sign(node.name, 'NSEC', NEGATIVE_TTL, [nsec], content));
      } else if (!delegation) kept.names.set(node.rrsets, segment);
    }
    segments.set(node.name, segment);
    for (const record of segment) records.push(record);
  }
  return {
    zoneId: index.zone.id,
    accountId: index.zone.accountId,
    apex,
    serial: index.zone.serial >>> 0,
    soa: encode(index.soa),
    soaRecord: index.soa,
    records,
    segments,
    signedAt,
    kept,
  };
}

/** The RRsets a name transfers: [type, the RRset, answers, ttl, content key]; the apex SOA is the snapshot's own. */
function rrsetsOf(index: ZoneIndex, node: NameNode): Array<[string, RRset, readonly RR[], number, string]> {
  if (node.cut && node.name !== index.apex) {
    const all = node.cut.ns.all;
    return [['NS', node.cut.ns, all.answers, all.ttl, all.key]];
  }
  const out: Array<[string, RRset, readonly RR[], number, string]> = [];
  for (const [type, rrset] of node.rrsets) {
    if (type === 'SOA') continue;
    const all = rrset.all;
    if (all.answers.length === 0) continue;
    // One name, one canonical name (RFC 2181 §10.1): a CNAME set drawn by weight transfers its first.
    const answers = type === 'CNAME' ? all.answers.slice(0, 1) : all.answers;
    out.push([type, rrset, answers, all.ttl, type === 'CNAME' ? `first|${all.key}` : all.key]);
  }
  return out;
}

/**
 * The index's names in canonical order: the previous order with the names no longer there left
 * out and those added sorted in (a sort of them all when there is no previous order, or many added).
 */
function canonicalOrder(index: ZoneIndex, previous: readonly NameNode[] | undefined): NameNode[] {
  const order = previous ? previous.filter((node) => index.nodes.get(node.name) === node) : [];
  if (order.length === index.nodes.size) return order;
  const present = new Set(order);
  const added: NameNode[] = [];
  for (const node of index.nodes.values()) if (!present.has(node)) added.push(node);
  if (added.length > 64) return sortedCanonically([...index.nodes.values()]);
  for (const node of added) {
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareCanonical(order[middle]!.name, node.name) < 0) low = middle + 1;
      else high = middle;
    }
    order.splice(low, 0, node);
  }
  return order;
}

function sortedCanonically(nodes: readonly NameNode[]): NameNode[] {
  return nodes
    .map((node) => [reversedKey(node.name), node] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, node]) => node);
}

/** The addresses of a delegation's name servers that lie below it: glue, which the parent must carry. */
function gluesOf(cut: NameNode): RR[] {
  return cut.cut!.glue.filter((rr) => isWithin(rr.name.toLowerCase(), cut.name)).map((rr) => ({ ...rr, name: rr.name.toLowerCase() }));
}

/** A name under a delegation: not the zone's data (its glue goes with the delegation). */
function belowCut(index: ZoneIndex, node: NameNode): boolean {
  if (!index.hasCuts) return false;
  for (let name = parentName(node.name); name !== undefined && isWithin(name, index.apex); name = parentName(name)) {
    if (index.nodes.get(name)?.cut && name !== index.apex) return true;
    if (name === index.apex) break;
  }
  return false;
}

/** RFC 4034 §6.1: names compared label by label from the right, each label as lower-case octets. */
export function compareCanonical(a: string, b: string): number {
  const x = reversedKey(a);
  const y = reversedKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const reversedKey = (name: string) => (name === '.' ? '' : name.split('.').reverse().join('\u0000'));

function encode(rr: RR): Buffer {
  return codec.answer.encode(rr as Answer);
}

function encoded(rr: RR): Encoded {
  const wire = encode(rr);
  return { wire, key: wire.toString('latin1') };
}
