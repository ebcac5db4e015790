/**
 * The authority over every zone in the store: given a decoded query, the answer, from memory.
 *
 * - The zone is the one whose domain is the longest suffix of the name; a name in none is REFUSED
 *   (no AA, no records). A DS question is answered by the zone above the name when the store
 *   holds it, since DS lives on the parent side of a delegation.
 * - Names match without regard to case; the question, and the owner of records at the name asked,
 *   keep the client's spelling (resolvers using 0x20 randomization compare them).
 * - CNAMEs are followed inside the zone and across the store's zones, at most `MAX_CHAIN` links; a
 *   loop or a longer chain stops following and answers the links so far (the resolver finds the
 *   loop, or carries on). A chain ending in a name that does not exist is NXDOMAIN, or NODATA, of
 *   the last name, with that name's zone's SOA (RFC 6604).
 * - ANY is answered minimally (RFC 8482 §4.1): one RRset of the name, the first present in
 *   `ANY_ORDER` (a CNAME when the name has one), over UDP and TCP alike.
 * - Negative answers carry the zone's SOA at the negative TTL (RFC 2308 §3, §5); signed zones add
 *   compact denial (denial.ts).
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { OptAnswer, Packet } from 'dns-packet';
import { EDGE_LOCATION } from '../../edge/logs/line.js';
import { systemClock } from '../../principal.js';
import { clientSubnetEcho, clientSubnetOf } from './client-subnet.js';
import { compactNsec, EDNS_COMPACT_OK, nxnameNsec } from './denial.js';
import { lookup } from './lookup.js';
import { all, andThen, type Maybe } from './maybe.js';
import { bareName, hostName, lowerName, parentName } from './names.js';
import { Reply } from './reply.js';
import { badVersion, errorResponse, queryOpt, RCODE, response, responseOpt } from './response.js';
import { APEX_TTL, NEGATIVE_TTL } from './soa.js';
import { characterStrings } from './rdata.js';
import type {
  AnswerDependencies,
  Answered,
  Authority,
  AuthorityOptions,
  DnsScriptQuery,
  DnsScriptRunner,
  QueryContext,
  RecordChanges,
  ServedZone,
} from './types.js';
import { type Resolved, UpstreamAddresses } from './upstream.js';
import { answerIdentity, type RR, type Selection } from './weighted.js';
import { changedNames, ZoneChanges } from './zone-changes.js';
import { changedRecords, editZoneIndex } from './zone-edit.js';
import { buildZoneIndex, edgeAddresses, type IndexOptions, type NameNode, type ZoneIndex } from './zone-index.js';

/** Links of a CNAME chain followed before handing the rest to the resolver (BIND and Knot stop near here too). */
export const MAX_CHAIN = 8;
const ANY_ORDER = ['CNAME', 'A', 'AAAA', 'UNKNOWN_65', 'MX', 'TXT', 'SRV', 'UNKNOWN_64', 'CAA', 'PTR', 'TLSA', 'NS', 'SOA', 'DNSKEY'];
/** Types no authority answers here: zone transfers are not offered. */
const REFUSED_TYPES = new Set(['AXFR', 'IXFR']);
/** The types a Script record's name answers from its script (the platform's record objects). */
const SCRIPTED_TYPES = new Set(['A', 'AAAA', 'CNAME', 'TXT']);
/** A script's answers live at most this long in resolvers' caches (it decides per query). */
const MAX_SCRIPT_TTL = 86_400;

/** A script's record value as dns-packet data; undefined when it is not one of its type. */
function scriptData(type: string, value: string): string | Buffer[] | undefined {
  if (type === 'A') return isIPv4(value) ? value : undefined;
  if (type === 'AAAA') return isIPv6(value) ? value : undefined;
  if (type === 'CNAME') {
    const target = hostName(value);
    return target === '' || target === '.' ? undefined : target;
  }
  return characterStrings(value);
}

/**
 * A zone as set, and its index once built. Building is left to the first query that needs it: a
 * zone written many times between two queries (records added one by one) is indexed once. When
 * every change since the index before is known, that index is edited instead (zone-edit.ts).
 */
interface ZoneEntry {
  zone: ServedZone;
  apex: string;
  /** Moves with every version of the zone set here. */
  generation: number;
  index?: ZoneIndex;
  /** The index the zone had before this version: its signatures may be kept, and with `edits` it is edited into this version's. */
  previous?: ZoneIndex;
  /** Every change of the records from `previous` to this version, in order; undefined when not all are known. */
  edits?: RecordChanges[];
  /** The names each recent version changed, for the packet cache (kept across versions of one domain). */
  changes: ZoneChanges;
}

/**
 * Edits worth applying rather than building afresh: up to a quarter of the zone's records (and
 * always a few, for small zones). Also bounds what a zone written without being queried keeps.
 */
const editsWorthIt = (edits: readonly RecordChanges[], index: ZoneIndex) => changedRecords(edits) <= 16 + index.records.size / 4;

/** The edits that carry the index before `old`'s version to the new one, when all are known and worth it. */
function pendingEdits(old: ZoneEntry | undefined, changes: RecordChanges | undefined): RecordChanges[] | undefined {
  const previous = old?.index ?? old?.previous;
  if (!changes || !old || !previous) return undefined;
  // The old entry is being replaced: its list can grow in place.
  const edits = old.index ? [changes] : old.edits;
  if (!edits) return undefined;
  if (!old.index) edits.push(changes);
  return editsWorthIt(edits, previous) ? edits : undefined;
}

export class ServingAuthority implements Authority {
  private readonly byId = new Map<number, ZoneEntry>();
  private readonly byApex = new Map<string, ZoneEntry>();
  /**
   * Moves whenever the set of zones changes (one added or removed, or a zone's domain changed): an
   * answer kept from before may now come from another zone. With `zoneGeneration`, what the DNS
   * plane's packet cache checks before it reuses an answer.
   */
  generation = 0;
  private zoneGenerations = 0;
  private readonly indexOptions: IndexOptions;
  private readonly random: () => number;
  private readonly upstream: UpstreamAddresses;
  private readonly runScript: DnsScriptRunner | undefined;
  /** Told when a zone set again has another serial (zone transfers: NOTIFY, history); not at a zone's first load. */
  readonly onSerialMoved: ((zone: ServedZone) => void)[] = [];
  readonly onRemoved: ((id: number) => void)[] = [];

  constructor(options: AuthorityOptions) {
    const clock = options.clock ?? systemClock;
    this.indexOptions = { ...edgeAddresses(options.edgeAddresses), clock };
    this.random = options.random ?? Math.random;
    this.upstream = new UpstreamAddresses(options.resolveUpstream, clock);
    this.runScript = options.runScript;
  }

  setZone(zone: ServedZone, changes?: RecordChanges): void {
    const old = this.byId.get(zone.id);
    const apex = hostName(zone.domain);
    const generation = ++this.zoneGenerations;
    const sameApex = old !== undefined && old.apex === apex;
    const previous = old?.index ?? old?.previous;
    const log = sameApex ? old.changes : new ZoneChanges();
    // A zone never indexed has answered nothing, so nothing of it is cached: no names to work out.
    log.add(generation, sameApex && previous ? changedNames(old.zone, zone, changes, apex) : undefined);
    const entry: ZoneEntry = { zone, apex, generation, previous, edits: pendingEdits(old, changes), changes: log };
    if (old && this.byApex.get(old.apex) === old) this.byApex.delete(old.apex);
    this.byId.set(zone.id, entry);
    this.byApex.set(entry.apex, entry);
    if (old?.apex !== entry.apex) this.generation++;
    if (old && old.zone.serial !== zone.serial) for (const listener of this.onSerialMoved) listener(zone);
  }

  /** The index of the zone whose apex is `apex` (lower case), built if it is not yet: what a zone transfer sends. */
  indexAtApex(apex: string): ZoneIndex | undefined {
    const entry = this.byApex.get(apex);
    return entry && this.indexOf(entry);
  }

  /** Moves with every version of the zone; undefined once it is removed. */
  zoneGeneration(id: number): number | undefined {
    return this.byId.get(id)?.generation;
  }

  /** Whether an answer of the zone made at its generation `since`, from `depends`, is still the answer now. */
  unchangedSince(id: number, since: number, depends: AnswerDependencies): boolean {
    return this.byId.get(id)?.changes.unchangedSince(since, depends) ?? false;
  }

  removeZone(id: number): void {
    const old = this.byId.get(id);
    if (!old) return;
    this.byId.delete(id);
    if (this.byApex.get(old.apex) === old) this.byApex.delete(old.apex);
    this.generation++;
    for (const listener of this.onRemoved) listener(id);
  }

  private indexOf(entry: ZoneEntry): ZoneIndex {
    if (entry.index) return entry.index;
    const old = entry.previous;
    if (old && entry.edits && editZoneIndex(old, entry.zone, entry.edits, this.indexOptions)) {
      entry.index = old;
      entry.previous = entry.edits = undefined;
      return old;
    }
    const index = buildZoneIndex(entry.zone, this.indexOptions);
    // Signatures stay valid across edits of other records: keep them while the key is the same.
    const sameKey = old?.zone.dnssec?.privateKeyPem === entry.zone.dnssec?.privateKeyPem && old?.zone.dnssec?.flags === entry.zone.dnssec?.flags;
    if (old?.signer && index.signer && old.apex === index.apex && sameKey) index.signer = old.signer;
    entry.index = index;
    entry.previous = entry.edits = undefined;
    return index;
  }

  answer(query: Packet, context: QueryContext): Answered | Promise<Answered> {
    const questions = query.questions;
    if ((((query.flags ?? 0) >> 11) & 0xf) !== 0) return { response: errorResponse(query, RCODE.NOTIMP) };
    if (questions?.length !== 1) return { response: errorResponse(query, RCODE.FORMERR) };
    const opt = queryOpt(query);
    if (opt && opt.ednsVersion > 0) return { response: badVersion(query, opt) };
    const question = questions[0]!;
    const qtype = String(question.type);
    if ((question.class !== undefined && question.class !== 'IN' && question.class !== 'ANY') || REFUSED_TYPES.has(qtype)) {
      return { response: errorResponse(query, RCODE.REFUSED) };
    }

    const asked = bareName(question.name);
    const name = lowerName(asked);
    const index = qtype === 'DS' ? this.dsZoneOf(name) : this.zoneOf(name);
    if (!index) return { response: errorResponse(query, RCODE.REFUSED) };

    const compactOk = opt !== undefined && (opt.flags & EDNS_COMPACT_OK) !== 0;
    const subnet = clientSubnetOf(opt);
    const reply = new Reply(context.dnssecOk, subnet);
    const done = this.resolve(reply, index, asked, name, qtype, compactOk, context);
    const answerOpt = (): OptAnswer | undefined => {
      if (!opt) return undefined;
      const out = responseOpt(opt, compactOk ? EDNS_COMPACT_OK : 0);
      if (subnet) out.options.push(clientSubnetEcho(subnet, reply.subnetScope ?? 0));
      return out;
    };
    const finish = (): Answered => ({
      response: response(query, reply.rcode, reply.authoritative, reply, answerOpt()),
      zone: index.zone,
      cacheable: reply.cacheable,
      depends: { names: reply.names, serial: reply.serial },
    });
    return done instanceof Promise ? done.then(finish) : finish();
  }

  private zoneOf(name: string): ZoneIndex | undefined {
    for (let n: string | undefined = name; n !== undefined; n = parentName(n)) {
      const entry = this.byApex.get(n);
      if (entry) return this.indexOf(entry);
    }
    return undefined;
  }

  private dsZoneOf(name: string): ZoneIndex | undefined {
    const own = this.zoneOf(name);
    if (!own || own.apex !== name) return own;
    const parent = parentName(name);
    return (parent && this.zoneOf(parent)) || own;
  }

  /** Fills `reply`; a promise only when a Flatten target must be asked upstream. */
  private resolve(reply: Reply, start: ZoneIndex, asked: string, lower: string, qtype: string, compactOk: boolean, context: QueryContext): Maybe<void> {
    const visited = new Set<string>();
    let index = start;
    let owner = asked;
    let name = lower;
    for (let link = 0; ; link++) {
      visited.add(name);
      reply.names.push(name);
      const found = lookup(index, name, qtype);
      if (found.kind === 'referral') {
        // Later in a chain, the resolver follows the delegation from the CNAME's target itself.
        if (link === 0) this.refer(reply, index, found.cut, owner, name);
        return;
      }
      if (found.kind === 'nxdomain') return this.deny(reply, index, owner, name, undefined, compactOk);

      const node = found.node;
      if (node.script && this.runScript && SCRIPTED_TYPES.has(qtype)) {
        // The script answers per query: nothing of it is cached.
        reply.cacheable = false;
        return this.scripted(reply, index, owner, name, node, qtype, compactOk, context);
      }
      if (node.cname && qtype !== 'CNAME' && qtype !== 'ANY') {
        if (node.cname.drawn) reply.cacheable = false;
        const selection = node.cname.select(this.random);
        reply.add(reply.answers, index, owner, 'CNAME', selection.answers, selection.key);
        const target = (selection.answers[0] as { data: string }).data;
        const next = link + 1 < MAX_CHAIN && !visited.has(target) ? this.zoneOf(target) : undefined;
        if (!next) return;
        // The answer now depends on another zone too, whose changes the cache would not see.
        if (next !== index) reply.cacheable = false;
        index = next;
        owner = name = target;
        continue;
      }
      const type = qtype === 'ANY' ? ANY_ORDER.find((t) => node.rrsets.has(t)) : qtype;
      const rrset = type === undefined ? undefined : node.rrsets.get(type);
      if (!rrset || type === undefined) return this.deny(reply, index, owner, name, node, compactOk);

      if (rrset.drawn) reply.cacheable = false;
      if (type === 'SOA') reply.serial = true;
      const selection = rrset.select(this.random);
      if (selection.flatten.length === 0) return reply.add(reply.answers, index, owner, type, selection.answers, selection.key);
      // Flattened addresses may come from upstream, and live only as long as it says.
      reply.cacheable = false;
      return andThen(this.flatten(selection, type, name, visited), (resolved) => {
        if (resolved === 'servfail') return reply.fail(RCODE.SERVFAIL);
        if (resolved.data.length === 0) return this.deny(reply, index, owner, name, node, compactOk);
        const answers = resolved.data.map((data) => ({ name: owner, type, class: 'IN', ttl: resolved.ttl, data }) as RR);
        reply.add(reply.answers, index, owner, type, answers, `${selection.key}|${resolved.data.join(',')}`);
      });
    }
  }

  /**
   * A Script record's answer: its DNS script's records of the type asked (a CNAME it returns answers
   * any type; PullZoneRecord stands for the edge's addresses). A script that fails (throws, runs past
   * its CPU bound, is not published) answers SERVFAIL; one that returns nothing of the type, NODATA.
   */
  private async scripted(
    reply: Reply,
    index: ZoneIndex,
    owner: string,
    name: string,
    node: NameNode,
    qtype: string,
    compactOk: boolean,
    context: QueryContext,
  ): Promise<void> {
    const script = node.script!;
    const subnet = reply.clientSubnet;
    const query: DnsScriptQuery = {
      hostname: owner,
      clientIP: context.address,
      queryType: qtype,
      ednsIP: subnet?.ip ?? '',
      geoLocation: { latitude: 0, longitude: 0, country: '', asn: 0 },
      serverZone: EDGE_LOCATION,
    };
    // The script may answer by the subnet: its answer holds for that prefix only.
    if (subnet) reply.subnetScope = subnet.sourcePrefixLength;
    const result = await this.runScript!(index.zone.accountId, script.scriptId, query, script.variables).catch(() => undefined);
    if (!result?.ok) return reply.fail(RCODE.SERVFAIL);
    const cname = result.answers.find((a) => a.type === 'CNAME');
    const type = cname ? 'CNAME' : qtype;
    const answers: RR[] = [];
    for (const a of cname ? [cname] : result.answers) {
      const ttl = Math.min(a.ttl, MAX_SCRIPT_TTL);
      if (a.type === 'PULLZONE' && (qtype === 'A' || qtype === 'AAAA')) {
        for (const data of qtype === 'A' ? this.indexOptions.edge4 : this.indexOptions.edge6)
          answers.push({ name: owner, type: qtype, class: 'IN', ttl, data });
      } else if (a.type === type) {
        const data = scriptData(a.type, a.value);
        if (data !== undefined) answers.push({ name: owner, type, class: 'IN', ttl, data } as RR);
      }
    }
    if (answers.length === 0) return this.deny(reply, index, owner, name, node, compactOk);
    reply.add(reply.answers, index, owner, type, answers, answers.map(answerIdentity).join('\n'));
  }

  /** A referral (RFC 1034 §4.3.2): no AA, the delegation's NS, glue; signed zones prove there is no DS. */
  private refer(reply: Reply, index: ZoneIndex, cut: NameNode, owner: string, name: string): void {
    reply.authoritative = false;
    const cutOwner = cut.name === name ? owner : cut.name;
    reply.addUnsigned(reply.authorities, cutOwner, cut.cut!.ns.all.answers);
    if (reply.dnssec && index.signer) {
      const nsec = compactNsec(cutOwner, cut.name, NEGATIVE_TTL, cut.types);
      reply.add(reply.authorities, index, cutOwner, 'NSEC', [nsec], cut.types.join());
    }
    for (const glue of cut.cut!.glue) reply.additionals.push(glue);
    for (const ns of cut.cut!.ns.all.answers) reply.names.push((ns as { data: string }).data);
  }

  /** NXDOMAIN (`node` undefined) or NODATA at `name`: the SOA, and compact denial when signed. */
  private deny(reply: Reply, index: ZoneIndex, owner: string, name: string, node: NameNode | undefined, compactOk: boolean): void {
    reply.rcode = node ? RCODE.NOERROR : RCODE.NXDOMAIN;
    reply.serial = true;
    reply.add(reply.authorities, index, index.apex, 'SOA', [index.negativeSoa], index.soaKey, APEX_TTL);
    if (!reply.dnssec || !index.signer) return;
    if (!node && !compactOk) reply.rcode = RCODE.NOERROR;
    const nsec = node ? compactNsec(owner, name, NEGATIVE_TTL, node.types) : nxnameNsec(owner, name, NEGATIVE_TTL);
    reply.add(reply.authorities, index, owner, 'NSEC', [nsec], node ? node.types.join() : '');
  }

  /**
   * The addresses a Flatten answer stands for: each target's, looked up through the store first
   * (following CNAMEs and further Flattens), upstream otherwise. The answer's TTL is the lowest of
   * the record's and the targets'.
   */
  private flatten(selection: Selection, type: string, name: string, visited: Set<string>): Maybe<Resolved> {
    const own = selection.answers.map((a) => (a as { data: string }).data);
    const targets = selection.flatten.map((target) => this.addresses(target, type as 'A' | 'AAAA', new Set(visited).add(name)));
    return andThen(all(targets), (results) => {
      let ttl = selection.ttl;
      const data = new Set(own);
      for (const r of results) {
        if (r === 'servfail') return 'servfail';
        ttl = Math.min(ttl, r.ttl);
        for (const d of r.data) data.add(d);
      }
      return { data: [...data], ttl };
    });
  }

  private addresses(target: string, type: 'A' | 'AAAA', visited: Set<string>): Maybe<Resolved> {
    let name = target;
    for (let link = 0; link < MAX_CHAIN; link++) {
      // A Flatten that leads back to itself has no address to give.
      if (visited.has(name)) return 'servfail';
      visited.add(name);
      const index = this.zoneOf(name);
      const found = index && lookup(index, name, type);
      if (!found || found.kind === 'referral') return this.upstream.lookup(name, type);
      if (found.kind === 'nxdomain') return { data: [], ttl: NEGATIVE_TTL };
      if (found.node.cname) {
        name = (found.node.cname.select(this.random).answers[0] as { data: string }).data;
        continue;
      }
      const rrset = found.node.rrsets.get(type);
      if (!rrset) return { data: [], ttl: NEGATIVE_TTL };
      return this.flatten(rrset.select(this.random), type, name, visited);
    }
    return 'servfail';
  }
}
