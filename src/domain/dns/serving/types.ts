/**
 * What the DNS plane asks of the domain: an authority over every zone in the store, answering one
 * query at a time from memory. The transport (UDP/TCP, EDNS framing, truncation, rate limits) is
 * the plane's; which records answer a question, and how, is decided here.
 */
import type { Answer, Packet } from 'dns-packet';
import type { DnsRecordT } from '../../../schemas/dns.js';
import type { Clock } from '../../principal.js';

/** A zone as the authority serves it: what the store holds, plus what serving needs. */
export interface ServedZone {
  id: number;
  accountId: number;
  /** Lower case, no trailing dot: `example.com`. */
  domain: string;
  /** Grows with every change of the zone (SOA serial). */
  serial: number;
  /** Names of the zone's name servers, first one the SOA MNAME (no trailing dot). */
  nameservers: string[];
  /** SOA RNAME as a mailbox: `hostmaster@example.com`. */
  soaEmail: string;
  /** Every record, disabled ones included (they are not served). */
  records: DnsRecordT[];
  /** SOA refresh, retry and expire as the operator set them (soa.ts has the defaults). */
  soaTimers?: SoaTimers;
  /** Present when the zone is signed. */
  dnssec?: ZoneSigningKey;
  /** Query logging on (the plane keeps a bounded log for the zone). */
  logging: boolean;
  /** How the query log hides client addresses (the zone's settings): 0 keeps all but the last group, 1 drops the address. */
  logAnonymization?: { enabled: boolean; type: number };
}

export interface SoaTimers {
  refresh: number;
  retry: number;
  expire: number;
}

/** What one write changed in a zone's records. */
export interface RecordChanges {
  /** Added after the zone's last record, in this order. */
  added: DnsRecordT[];
  /** Rewritten in place (the zone's order kept). */
  changed: { before: DnsRecordT; after: DnsRecordT }[];
  removed: DnsRecordT[];
}

/** The zone's DNSSEC key: ECDSA P-256 with SHA-256 (algorithm 13), one key for zone and keys (CSK). */
export interface ZoneSigningKey {
  /** PKCS#8 PEM of the private key: a credential, sealed at rest. */
  privateKeyPem: string;
  /** The public key as DNSKEY carries it: 64 bytes (X then Y), base64. */
  publicKey: string;
  keyTag: number;
  /** DNSKEY flags: 257 (a key-signing key that signs everything: a combined signing key). */
  flags: number;
}

/** Who asked, for answers that depend on it and for logs and limits. */
export interface QueryContext {
  /** Client address. */
  address: string;
  transport: 'udp' | 'tcp';
  /** Largest UDP answer the client takes (512 without EDNS); TCP: 65535. */
  maxSize: number;
  /** The DO bit: the client wants DNSSEC records. */
  dnssecOk: boolean;
}

export interface Answered {
  response: Packet;
  /** Answered from records with latency or geolocation routing (counted apart in the statistics). */
  smart?: boolean;
  /** The zone that answered, for statistics and query logs; undefined for REFUSED / FORMERR. */
  zone?: ServedZone;
  /** The same query would get the same answer until the authority's `generation` moves (no chance, no upstream). */
  cacheable?: boolean;
  /** What in its zone a cacheable answer was made from (see AnswerDependencies); undefined: all of the zone. */
  depends?: AnswerDependencies;
}

/**
 * What an answer read of its zone: the names it looked up (the one asked, each link of a CNAME
 * chain, the targets whose addresses a referral gives as glue), and whether it carries the SOA,
 * whose serial every write moves (negative answers, SOA itself). A change of the zone's records
 * that touches no name related to these leaves the answer as it was.
 */
export interface AnswerDependencies {
  names: readonly string[];
  serial: boolean;
}

/**
 * Asks the wider DNS for the addresses of a name no zone in the store holds (a Flatten target
 * elsewhere). Answers of other types in the list (a CNAME chain) are ignored; `undefined`, or a
 * rejection, means the name could not be resolved (the query is answered SERVFAIL).
 */
export type UpstreamResolver = (name: string, type: 'A' | 'AAAA') => Promise<Answer[] | undefined>;

/** What a DNS script (a Script record's, the platform's Scriptable DNS) is told of a query. */
export interface DnsScriptQuery {
  hostname: string;
  clientIP: string;
  /** A, AAAA, TXT, CNAME… */
  queryType: string;
  /** The EDNS Client Subnet address, when the query carried one; else empty. */
  ednsIP: string;
  /** No location database here: unknown (empty country, 0, 0). */
  geoLocation: { latitude: number; longitude: number; country: string; asn: number };
  /** The location that received the query: edgeplane's one, `LOCAL` (as in the access log). */
  serverZone: string;
}

/** One record a DNS script answered; PULLZONE stands for the edge's addresses. */
export interface DnsScriptAnswer {
  type: 'A' | 'AAAA' | 'CNAME' | 'TXT' | 'PULLZONE';
  value: string;
  ttl: number;
}

/**
 * Runs a zone account's DNS script for a query, the Script record's variables (its
 * `EnviromentalVariables`) visible to the script as environment variables while it answers;
 * `ok: false` is answered SERVFAIL.
 */
export type DnsScriptRunner = (
  accountId: number,
  scriptId: number,
  query: DnsScriptQuery,
  variables: Record<string, string>,
) => Promise<{ ok: true; answers: DnsScriptAnswer[] } | { ok: false; message: string }>;

export interface AuthorityOptions {
  /** Answers Script records; without it they answer no type (NODATA). */
  runScript?: DnsScriptRunner;
  /** The edge's addresses, IPv4 and IPv6: what PullZone and Redirect records answer. */
  edgeAddresses: readonly string[];
  /** Without it, a Flatten record whose target is outside the store answers SERVFAIL. */
  resolveUpstream?: UpstreamResolver;
  /** Draws weighted answers; `Math.random` unless a test fixes it. */
  random?: () => number;
  /** Signature inception and expiry, and upstream answer caching. */
  clock?: Clock;
}

export interface Authority {
  /** Moves whenever a zone is set or removed (answers made before may be stale); without it, the plane caches no answer. */
  readonly generation?: number;
  /** Moves with every version of one zone; undefined once it is removed. */
  zoneGeneration?(id: number): number | undefined;
  /** Whether an answer of zone `id` made at its generation `since`, from `depends`, still stands (zone-changes.ts). */
  unchangedSince?(id: number, since: number, depends: AnswerDependencies): boolean;
  /**
   * Serves this version of the zone. `changes`, when given, are all that changed in its records
   * since the version set before (the authority may then edit what it built rather than build
   * again); without them the records may have changed in any way.
   */
  setZone(zone: ServedZone, changes?: RecordChanges): void;
  removeZone(id: number): void;
  /** Answers one query (its question and flags decoded); resolves at once unless it must ask upstream (Flatten to a name outside the store). */
  answer(query: Packet, context: QueryContext): Answered | Promise<Answered>;
}
