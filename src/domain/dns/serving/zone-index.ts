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
 * - Script records make their name exist but answer no type (NODATA): there is no script runtime
 *   to produce an answer, and NODATA lets resolvers cache that for the SOA minimum only.
 * - NS records at the apex are served after the zone's own name servers, in one RRset at the apex
 *   TTL (multi-provider setups list both providers there); NS records below the apex delegate.
 * - A CNAME below the apex is the only data of its name (RFC 2181 §10.1): other records there are
 *   not served.
 */
import { isIPv4 } from 'node:net';
import type { DnsRecordT } from '../../../schemas/dns.js';
import type { Clock } from '../../principal.js';
import { ALGORITHM, CSK_FLAGS } from './dnssec.js';
import { hostName, isWithin, labelCount, ownerName, parentName } from './names.js';
import { recordAnswer } from './rdata.js';
import { ZoneSigner } from './signer.js';
import { APEX_TTL, NEGATIVE_TTL, soaAnswer, zoneNameservers } from './soa.js';
import type { ServedZone } from './types.js';
import { answerIdentity, buildRRset, type Candidate, type RR, type RRset } from './weighted.js';

export interface Delegation {
  ns: RRset;
  /** Addresses of the name servers that sit inside the zone, for the additional section. */
  glue: RR[];
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
}

export interface ZoneIndex {
  zone: ServedZone;
  apex: string;
  nodes: Map<string, NameNode>;
  hasCuts: boolean;
  /** The SOA at its own TTL, and at the negative TTL for the authority section of negative answers. */
  soa: RR;
  negativeSoa: RR;
  /** Names the SOA's content (serial included) for the signature cache, which outlives the index. */
  soaKey: string;
  signer?: ZoneSigner;
}

export interface IndexOptions {
  edge4: readonly string[];
  edge6: readonly string[];
  clock: Clock;
}

type Buckets = Map<string, Map<string, Candidate[]>>;

export function buildZoneIndex(zone: ServedZone, options: IndexOptions): ZoneIndex {
  const apex = hostName(zone.domain);
  const nodes = new Map<string, NameNode>();
  const ensure = (name: string): NameNode => {
    let node = nodes.get(name);
    if (node) return node;
    node = { name, rrsets: new Map(), types: [] };
    nodes.set(name, node);
    if (name !== apex) ensure(parentName(name)!);
    return node;
  };
  ensure(apex);

  const buckets: Buckets = new Map();
  const apexNs = zoneNameservers(zone);
  for (const record of zone.records) {
    if (record.Disabled) continue;
    const owner = ownerName(record.Name, apex);
    if (!isValidOwner(owner) || !isWithin(owner, apex)) continue;
    ensure(owner);
    if (record.Type === 12 && owner === apex) {
      const ns = hostName(record.Value ?? '');
      if (ns !== '.' && ns !== '' && !apexNs.includes(ns)) apexNs.push(ns);
      continue;
    }
    for (const [type, candidate] of candidatesOf(record, owner, owner === apex, options)) {
      let types = buckets.get(owner);
      if (!types) buckets.set(owner, (types = new Map()));
      const list = types.get(type);
      if (list) list.push(candidate);
      else types.set(type, [candidate]);
    }
  }

  const soa = soaAnswer(zone, apex, APEX_TTL);
  const apexNode = nodes.get(apex)!;
  apexNode.rrsets.set('SOA', fixed('SOA', [soa]));
  if (apexNs.length > 0)
    apexNode.rrsets.set(
      'NS',
      fixed(
        'NS',
        apexNs.map((ns) => ({ name: apex, type: 'NS', class: 'IN', ttl: APEX_TTL, data: ns })),
      ),
    );
  // A key stored without flags is the platform's combined signing key; DNSKEY and signatures must agree on it.
  const signingKey = zone.dnssec && { ...zone.dnssec, flags: zone.dnssec.flags || CSK_FLAGS };
  if (signingKey) {
    const key = { flags: signingKey.flags, algorithm: ALGORITHM, key: Buffer.from(signingKey.publicKey, 'base64') };
    apexNode.rrsets.set('DNSKEY', fixed('DNSKEY', [{ name: apex, type: 'DNSKEY', class: 'IN', ttl: APEX_TTL, data: key }]));
  }

  let hasCuts = false;
  for (const [owner, types] of buckets) {
    const node = nodes.get(owner)!;
    const ns = types.get('NS');
    const cname = types.get('CNAME');
    for (const [type, candidates] of types) if (type !== 'NS') node.rrsets.set(type, buildRRset(type, candidates));
    if (ns) {
      node.cut = { ns: buildRRset('NS', ns), glue: [] };
      hasCuts = true;
    } else if (cname) {
      node.cname = node.rrsets.get('CNAME')!;
      node.rrsets = new Map([['CNAME', node.cname]]);
    }
  }
  for (const node of nodes.values()) {
    node.types = node.cut ? ['NS'] : [...node.rrsets.keys()];
    if (node.cut) node.cut.glue = glueOf(node.cut.ns, apex, nodes);
  }

  return {
    zone,
    apex,
    nodes,
    hasCuts,
    soa,
    negativeSoa: { ...soa, ttl: NEGATIVE_TTL },
    soaKey: answerIdentity(soa),
    ...(signingKey ? { signer: new ZoneSigner(apex, signingKey, options.clock) } : {}),
  };
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
