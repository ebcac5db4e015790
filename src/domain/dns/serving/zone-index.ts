/**
 * A zone turned into what answering needs, once per change: every name that exists (lower case,
 * empty non-terminals included, RFC 4592 needs them), and at each its RRsets of ready-made
 * dns-packet answers. A query then costs a few Map lookups.
 *
 * How the platform's records become DNS data:
 * - Disabled records are left out.
 * - PullZone and Redirect records answer A and AAAA with the edge's addresses (IPv4 for A, IPv6
 *   for AAAA), at the record's TTL: the edge serves the pull zone or the redirect.
 * - Flatten records, and CNAME records at the apex (where a CNAME cannot stand beside SOA and NS,
 *   RFC 1034 §3.6.2), answer A and AAAA with the addresses their target has when asked.
 * - A Script record makes its name answer A, AAAA, CNAME and TXT queries with what its DNS script
 *   returns for each query (the authority asks it: `script` on the name); other types, or a server
 *   without scripts, get NODATA. The record's own other data at that name are not served.
 * - NS records at the apex are served after the zone's own name servers, in one RRset at the apex
 *   TTL (multi-provider setups list both providers there); NS records below the apex delegate.
 * - A CNAME below the apex is the only data of its name (RFC 2181 §10.1): other records there are
 *   not served.
 */
import { isIPv4 } from 'node:net';
import type { DnsRecordT } from '../../../schemas/dns.js';
import { linkedId } from '../record-model.js';
import type { Clock } from '../../principal.js';
import { ALGORITHM, CSK_FLAGS } from './dnssec.js';
import { hostName, isWithin, labelCount, ownerName, parentName } from './names.js';
import { recordAnswer } from './rdata.js';
import { ZoneSigner } from './signer.js';
import { APEX_TTL, NEGATIVE_TTL, soaAnswer, zoneNameservers } from './soa.js';
import type { ServedZone, ZoneSigningKey } from './types.js';
import { answerIdentity, buildRRset, type Candidate, type RR, type RRset } from './weighted.js';

export interface Delegation {
  ns: RRset;
  /** Addresses of the name servers that sit inside the zone, for the additional section. */
  glue: RR[];
}

/** A record with its place in the zone's order (which the answers keep) and the name it is served at, if any. */
export interface PlacedRecord {
  ordinal: number;
  record: DnsRecordT;
  owner: string | undefined;
}

export interface NameNode {
  name: string;
  rrsets: Map<string, RRset>;
  /** A CNAME below the apex: the answer to every type but CNAME itself. */
  cname?: RRset;
  /** NS below the apex: the name and everything under it belong to another server. */
  cut?: Delegation;
  /** The types that exist at the name, for NSEC type bitmaps. */
  types: string[];
  /** The enabled records owned by this name, in the zone's order: what `rrsets` is made of. */
  records: PlacedRecord[];
  /** Names directly below that exist: a name with neither records nor children does not exist. */
  children: number;
  /** A Script record's: the script answers this name's queries, with the record's variables. */
  script?: { scriptId: number; ttl: number; variables: Record<string, string> };
}

export interface ZoneIndex {
  zone: ServedZone;
  apex: string;
  nodes: Map<string, NameNode>;
  hasCuts: boolean;
  /** The names with NS below the apex (`hasCuts` while there is one): their glue follows the zone's addresses. */
  cuts: Set<NameNode>;
  /** The SOA at its own TTL, and at the negative TTL for the authority section of negative answers. */
  soa: RR;
  negativeSoa: RR;
  /** Names the SOA's content (serial included) for the signature cache, which outlives the index. */
  soaKey: string;
  signer?: ZoneSigner;
  /** Every record by id, disabled ones included (an edit keeps a changed record's place in the zone's order). */
  records: Map<number, PlacedRecord>;
  nextOrdinal: number;
}

export interface IndexOptions {
  edge4: readonly string[];
  edge6: readonly string[];
  clock: Clock;
}

export function buildZoneIndex(zone: ServedZone, options: IndexOptions): ZoneIndex {
  const apex = hostName(zone.domain);
  const index: ZoneIndex = { zone, apex, nodes: new Map(), hasCuts: false, cuts: new Set(), ...soaOf(zone, apex), records: new Map(), nextOrdinal: 0 };
  ensureNode(index, apex);
  for (const record of zone.records) placeRecord(index, record, index.nextOrdinal++);
  for (const node of index.nodes.values()) renderNode(index, node, options);
  renderGlue(index);
  const signingKey = signingKeyOf(zone);
  if (signingKey) index.signer = new ZoneSigner(apex, signingKey, options.clock);
  return index;
}

/** A key stored without flags is the platform's combined signing key; DNSKEY and signatures must agree on it. */
export function signingKeyOf(zone: ServedZone): ZoneSigningKey | undefined {
  return zone.dnssec && { ...zone.dnssec, flags: zone.dnssec.flags || CSK_FLAGS };
}

/** The node of `name`, made (with the names above it, up to the apex) when it does not exist yet. */
function ensureNode(index: ZoneIndex, name: string): NameNode {
  let node = index.nodes.get(name);
  if (node) return node;
  node = { name, rrsets: new Map(), types: [], records: [], children: 0 };
  index.nodes.set(name, node);
  if (name !== index.apex) ensureNode(index, parentName(name)!).children++;
  return node;
}

/**
 * Puts a record at its name (made if needed) when it is served at all: enabled, and owned by a
 * valid name inside the zone. Returns the name, or undefined for a record not served. Records of a
 * name stay in the zone's order.
 */
export function placeRecord(index: ZoneIndex, record: DnsRecordT, ordinal: number): string | undefined {
  const owner = servedOwner(index, record);
  const placed: PlacedRecord = { ordinal, record, owner };
  index.records.set(record.Id, placed);
  if (owner === undefined) return undefined;
  const node = ensureNode(index, owner);
  const records = node.records;
  // Most names own one record: an array of exactly one, not one grown by push (room for 17).
  if (records.length === 0) {
    node.records = [placed];
    return owner;
  }
  let at = records.length;
  while (at > 0 && records[at - 1]!.ordinal > ordinal) at--;
  records.splice(at, 0, placed);
  return owner;
}

/** The name a record is served at, or undefined when it is not served. */
function servedOwner(index: ZoneIndex, record: DnsRecordT): string | undefined {
  if (record.Disabled) return undefined;
  const owner = ownerName(record.Name, index.apex);
  return isValidOwner(owner) && isWithin(owner, index.apex) ? owner : undefined;
}

/** The zone's SOA as the index keeps it (its serial moves with every write). */
function soaOf(zone: ServedZone, apex: string): Pick<ZoneIndex, 'soa' | 'negativeSoa' | 'soaKey'> {
  const soa = soaAnswer(zone, apex, APEX_TTL);
  return { soa, negativeSoa: { ...soa, ttl: NEGATIVE_TTL }, soaKey: answerIdentity(soa) };
}

/** A Script record's `EnviromentalVariables` as its script sees them: unnamed ones left out, a null value empty. */
function scriptVariables(record: DnsRecordT): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const v of record.EnviromentalVariables ?? []) if (v.Name) variables[v.Name] = v.Value ?? '';
  return variables;
}

/** Makes a node's RRsets (and at the apex the zone's SOA, NS and DNSKEY) from its records. */
export function renderNode(index: ZoneIndex, node: NameNode, options: IndexOptions): void {
  const atApex = node.name === index.apex;
  const zone = index.zone;
  const buckets = new Map<string, Candidate[]>();
  const apexNs = atApex ? zoneNameservers(zone) : [];
  for (const { record } of node.records) {
    if (record.Type === 12 && atApex) {
      const ns = hostName(record.Value ?? '');
      if (ns !== '.' && ns !== '' && !apexNs.includes(ns)) apexNs.push(ns);
      continue;
    }
    for (const [type, candidate] of candidatesOf(record, node.name, atApex, options)) {
      const list = buckets.get(type);
      if (list) list.push(candidate);
      else buckets.set(type, [candidate]);
    }
  }

  const rrsets = new Map<string, RRset>();
  const script = node.records.find(({ record }) => record.Type === 11)?.record;
  const scriptId = script ? linkedId(script) : null;
  node.script = script && scriptId ? { scriptId, ttl: script.Ttl, variables: scriptVariables(script) } : undefined;
  node.cname = undefined;
  if (node.cut) index.cuts.delete(node);
  node.cut = undefined;
  if (atApex) {
    Object.assign(index, soaOf(zone, index.apex));
    rrsets.set('SOA', fixed('SOA', [index.soa]));
    if (apexNs.length > 0)
      rrsets.set(
        'NS',
        fixed(
          'NS',
          apexNs.map((ns) => ({ name: index.apex, type: 'NS', class: 'IN', ttl: APEX_TTL, data: ns })),
        ),
      );
    const signingKey = signingKeyOf(zone);
    if (signingKey) {
      const key = { flags: signingKey.flags, algorithm: ALGORITHM, key: Buffer.from(signingKey.publicKey, 'base64') };
      rrsets.set('DNSKEY', fixed('DNSKEY', [{ name: index.apex, type: 'DNSKEY', class: 'IN', ttl: APEX_TTL, data: key }]));
    }
  }
  for (const [type, candidates] of buckets) if (type !== 'NS') rrsets.set(type, buildRRset(type, candidates));
  const ns = buckets.get('NS');
  node.rrsets = rrsets;
  if (ns) {
    node.cut = { ns: buildRRset('NS', ns), glue: [] };
    index.cuts.add(node);
  } else if (buckets.has('CNAME')) {
    node.cname = rrsets.get('CNAME')!;
    node.rrsets = new Map([['CNAME', node.cname]]);
  }
  node.types = node.cut ? ['NS'] : [...node.rrsets.keys()];
  index.hasCuts = index.cuts.size > 0;
}

/** Every delegation's glue, from the addresses its name servers have in the zone now. */
export function renderGlue(index: ZoneIndex): void {
  for (const node of index.cuts) node.cut!.glue = glueOf(node.cut!.ns, index.apex, index.nodes);
}

/** What a record contributes, per type it answers. */
function candidatesOf(record: DnsRecordT, owner: string, atApex: boolean, options: IndexOptions): Array<[string, Candidate]> {
  const base = { weight: record.Weight, offline: record.MonitorStatus === 2, ttl: record.Ttl };
  const addresses = (type: 'A' | 'AAAA', list: readonly string[]): Array<[string, Candidate]> =>
    list.length === 0 ? [] : [[type, { ...base, answers: list.map((data) => ({ name: owner, type, class: 'IN', ttl: record.Ttl, data })) }]];
  const flatten = (): Array<[string, Candidate]> => {
    const target = hostName(record.Value ?? '');
    if (target === '.' || target === '' || target === owner) return [];
    return [
      ['A', { ...base, answers: [], flatten: target }],
      ['AAAA', { ...base, answers: [], flatten: target }],
    ];
  };
  switch (record.Type) {
    case 5: // Redirect
    case 7: // PullZone
      return [...addresses('A', options.edge4), ...addresses('AAAA', options.edge6)];
    case 6:
      return flatten();
    case 2:
      if (atApex) return flatten();
      break;
    case 11: // Script: the name exists, nothing answers
      return [];
  }
  const answer = recordAnswer(record, owner);
  return answer ? [[answer.type, { ...base, answers: [answer] }]] : [];
}

/** An RRset the platform itself publishes: every record, no weights. */
function fixed(type: string, answers: RR[]): RRset {
  return buildRRset(
    type,
    answers.map((a) => ({ weight: 0, offline: false, ttl: a.ttl ?? 0, answers: [a] })),
  );
}

function glueOf(ns: RRset, apex: string, nodes: Map<string, NameNode>): RR[] {
  const glue: RR[] = [];
  for (const answer of ns.all.answers) {
    const target = (answer as { data: string }).data;
    if (!isWithin(target, apex)) continue;
    const node = nodes.get(target);
    for (const type of ['A', 'AAAA']) glue.push(...(node?.rrsets.get(type)?.all.answers ?? []));
  }
  return glue;
}

function isValidOwner(name: string): boolean {
  return name.length <= 253 && labelCount(name) <= 127 && name.split('.').every((label) => label.length > 0 && Buffer.byteLength(label) <= 63);
}

/** The edge's addresses split by family; blanks around each (a comma-separated setting) are ignored. */
export function edgeAddresses(addresses: readonly string[]): { edge4: string[]; edge6: string[] } {
  const trimmed = addresses.map((a) => a.trim());
  return { edge4: trimmed.filter((a) => isIPv4(a)), edge6: trimmed.filter(isIPv6WithoutZone) };
}

/**
 * Checked by the URL parser (native code) rather than net.isIPv6: the regular expression behind
 * that one takes ~4 ms to compile on its first use, and this first use is in every start. Only the
 * characters of an IPv6 address are let through to it: with others ("@", "/", …) the brackets
 * would not be the URL's host at all.
 */
const isIPv6WithoutZone = (address: string) => /^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$/.test(address) && URL.canParse(`http://[${address}]/`);
