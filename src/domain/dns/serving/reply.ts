/**
 * The sections of an answer as they are filled, RRset by RRset, each followed by its RRSIG when
 * the client asked for DNSSEC (DO) and the RRset's zone is signed.
 */
import type { Answer } from 'dns-packet';
import type { ClientSubnet } from './client-subnet.js';
import type { RR } from './weighted.js';
import { RCODE } from './response.js';
import type { ZoneIndex } from './zone-index.js';

export class Reply {
  readonly answers: Answer[] = [];
  readonly authorities: Answer[] = [];
  readonly additionals: Answer[] = [];
  rcode: number = RCODE.NOERROR;
  authoritative = true;
  /** False once the answer depends on chance or on an upstream lookup: the same query may get another. */
  cacheable = true;
  /** The names of its zone the answer was made from, and whether it carries the SOA (see AnswerDependencies). */
  readonly names: string[] = [];
  serial = false;
  /** Set when the answer was made for the query's client subnet (a script's): the prefix it holds for. */
  subnetScope: number | undefined;

  /** `clientSubnet`: the query's EDNS Client Subnet, when it had one (client-subnet.ts). */
  constructor(
    readonly dnssec: boolean,
    readonly clientSubnet?: ClientSubnet,
  ) {}

  /**
   * Adds an RRset served at `owner` (the spelling the client used, when it is the name asked).
   * `key` names its content for the signature cache, which outlives zone updates: it must change
   * whenever the records do. `originalTtl` is the TTL signed when the
   * served one is lower (the SOA of a negative answer, RFC 4035 §2.3).
   */
  add(section: Answer[], index: ZoneIndex, owner: string, type: string, answers: readonly RR[], key: string, originalTtl?: number): void {
    const first = answers[0];
    if (!first) return;
    if (first.name === owner) for (const a of answers) section.push(a);
    else for (const a of answers) section.push({ ...a, name: owner });
    if (!this.dnssec || !index.signer) return;
    const ttl = first.ttl ?? 0;
    const rrsig = index.signer.sign(owner, type, originalTtl ?? ttl, answers, key);
    section.push(rrsig.name === owner && rrsig.ttl === ttl ? rrsig : { ...rrsig, name: owner, ttl });
  }

  /** An RRset the zone does not sign: a delegation's NS and its glue (RFC 4035 §2.2). */
  addUnsigned(section: Answer[], owner: string, answers: readonly RR[]): void {
    for (const a of answers) section.push(a.name === owner ? a : { ...a, name: owner });
  }

  fail(rcode: number): void {
    this.rcode = rcode;
    this.authoritative = false;
    this.answers.length = 0;
    this.authorities.length = 0;
    this.additionals.length = 0;
  }
}
