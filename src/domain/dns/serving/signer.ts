/**
 * Online signing of a zone's RRsets (RFC 4034 §3, §6): the RRSIG over an RRset in canonical form,
 * ECDSA P-256/SHA-256 in the 64-octet r‖s form of RFC 6605. Signatures are kept per owner, type
 * and content, so a repeated query is answered without signing again.
 *
 * Validity: from an hour before signing (clocks of validators run late) to a week after; a kept
 * signature is replaced after a day, so every one served has at least six days left, more than
 * any TTL the platform lets a record have in practice.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import dnsPacket, { type Answer } from 'dns-packet';
import { ExpiringMap } from '../../bounded-map.js';
import type { Clock } from '../../principal.js';
import { ALGORITHM, dnskeyRdata, keyTag } from './dnssec.js';
import { labelCount, lowerName, nameWire } from './names.js';
import type { ZoneSigningKey } from './types.js';
import { answerIdentity, type RR } from './weighted.js';

const HOUR = 3600;
const DAY = 86400;
const INCEPTION_SLACK = HOUR;
const VALIDITY = 7 * DAY;
export const RESIGN_AFTER = DAY;
/** Signatures kept per zone; beyond it the oldest go (names made up by queries must not fill memory). */
const CACHE_LIMIT = 20000;

const codec = dnsPacket as unknown as { answer: { encode(a: Answer): Buffer } };

const TYPE_CODES: Record<string, number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  DS: 43,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  TLSA: 52,
  CAA: 257,
};

export function typeCode(type: string): number {
  const known = TYPE_CODES[type];
  if (known !== undefined) return known;
  if (type.startsWith('UNKNOWN_')) return Number(type.slice(8));
  throw new Error(`no type code for ${type}`);
}

interface Kept {
  rrsig: RR;
  signedAt: number;
  /** When it is due to be signed again (RESIGN_AFTER after signedAt). */
  until: number;
}

export class ZoneSigner {
  private readonly privateKey: KeyObject;
  private readonly keyTag: number;
  private readonly signerName: Buffer;
  private readonly kept = new ExpiringMap<string, Kept>(CACHE_LIMIT);

  constructor(
    private readonly apex: string,
    key: ZoneSigningKey,
    private readonly clock: Clock,
  ) {
    this.privateKey = createPrivateKey(key.privateKeyPem);
    this.keyTag = keyTag(dnskeyRdata(key));
    this.signerName = nameWire(apex);
  }

  /**
   * The RRSIG over `answers` (one RRset, all at `owner`, of `type`), with `ttl` as original TTL.
   * `contentKey` names the content when the caller knows it cheaply; otherwise it is derived.
   */
  sign(owner: string, type: string, ttl: number, answers: readonly RR[], contentKey?: string): RR {
    const lowerOwner = lowerName(owner);
    const key = `${lowerOwner}|${type}|${ttl}|${contentKey ?? answers.map(answerIdentity).join('\n')}`;
    const now = Math.floor(this.clock().getTime() / 1000);
    const kept = this.kept.getFresh(key, now);
    // A clock that stepped back behind the signature's time signs again: its inception may lie ahead.
    if (kept && now >= kept.signedAt) return kept.rrsig;

    const rrsig = this.signNow(lowerOwner, type, ttl, answers, now);
    this.kept.set(key, { rrsig, signedAt: now, until: now + RESIGN_AFTER });
    return rrsig;
  }

  /** A signature made now, not kept (a zone transfer keeps its own: a whole zone would crowd out the answers'). */
  signUncached(owner: string, type: string, ttl: number, answers: readonly RR[]): RR {
    return this.signNow(lowerName(owner), type, ttl, answers, Math.floor(this.clock().getTime() / 1000));
  }

  private signNow(owner: string, type: string, ttl: number, answers: readonly RR[], now: number): RR {
    // The wildcard label is not counted (RFC 4034 §3.1.3); answers synthesized from a wildcard
    // are signed at the name asked, as if it existed, so they need no proof of non-existence.
    const labels = labelCount(owner) - (owner.startsWith('*.') ? 1 : 0);
    const inception = (now - INCEPTION_SLACK) >>> 0;
    const expiration = (now + VALIDITY) >>> 0;
    const head = Buffer.alloc(18);
    head.writeUInt16BE(typeCode(type), 0);
    head.writeUInt8(ALGORITHM, 2);
    head.writeUInt8(labels, 3);
    head.writeUInt32BE(ttl, 4);
    head.writeUInt32BE(expiration, 8);
    head.writeUInt32BE(inception, 12);
    head.writeUInt16BE(this.keyTag, 16);

    const signature = sign('sha256', Buffer.concat([head, this.signerName, ...canonicalRRset(owner, ttl, answers)]), {
      key: this.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return {
      name: owner,
      type: 'RRSIG',
      class: 'IN',
      ttl,
      data: {
        typeCovered: type,
        algorithm: ALGORITHM,
        labels,
        originalTTL: ttl,
        expiration,
        inception,
        keyTag: this.keyTag,
        signersName: this.apex,
        signature,
      },
    };
  }
}

/**
 * The RRs in canonical form and order (RFC 4034 §6.2, §6.3): owner in lower case, the original TTL,
 * sorted by rdata, duplicates once. Names inside served rdata are already lower case (see rdata.ts),
 * so dns-packet's uncompressed encoding is the canonical one.
 */
export function canonicalRRset(owner: string, ttl: number, answers: readonly RR[]): Buffer[] {
  const ownerLength = nameWire(owner).length;
  const encoded = answers.map((a) => {
    const wire = codec.answer.encode({ ...a, name: owner, ttl, class: 'IN' } as Answer);
    return { wire, rdata: wire.subarray(ownerLength + 10) };
  });
  encoded.sort((a, b) => Buffer.compare(a.rdata, b.rdata));
  return encoded.filter((e, i) => i === 0 || !e.rdata.equals(encoded[i - 1]!.rdata)).map((e) => e.wire);
}
