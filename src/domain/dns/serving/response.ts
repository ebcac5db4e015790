/**
 * The frame of an answer: header flags, the question echoed as asked, the OPT record (RFC 6891),
 * and the helpers the transport builds its own answers with (errors, truncation).
 */
import type { Answer, OptAnswer, Packet } from 'dns-packet';

export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
/** BADVERS (16) is an extended rcode: 1 in the OPT's upper bits, 0 in the header. */
const BADVERS_UPPER = 1;

const AA = 1 << 10;
const TC = 1 << 9;
/** Kept from the query: opcode, RD (RFC 1035 §4.1.1) and CD (RFC 4035 §3.1.6). */
const ECHOED = (0xf << 11) | (1 << 8) | (1 << 4);
export const EDNS_DO = 0x8000;
/** What the server advertises: the size DNS flag day 2020 recommends, which avoids IP fragmentation. */
export const UDP_PAYLOAD_SIZE = 1232;

export function queryOpt(query: Packet): OptAnswer | undefined {
  const additionals = query.additionals;
  if (!additionals) return undefined;
  for (const a of additionals) if (a.type === 'OPT') return a;
  return undefined;
}

/** The OPT of an answer: present when the query had one; the DO bit echoed (RFC 3225 §3). */
export function responseOpt(query: OptAnswer, extraFlags = 0, extendedRcode = 0): OptAnswer {
  const flags = (query.flags & EDNS_DO) | extraFlags;
  return { name: '.', type: 'OPT', udpPayloadSize: UDP_PAYLOAD_SIZE, extendedRcode, ednsVersion: 0, flags, flag_do: (flags & EDNS_DO) !== 0, options: [] };
}

export interface Sections {
  answers?: Answer[];
  authorities?: Answer[];
  additionals?: Answer[];
}

export function response(query: Packet, rcode: number, authoritative: boolean, sections: Sections = {}, opt?: OptAnswer): Packet {
  const additionals = sections.additionals ?? [];
  return {
    id: query.id ?? 0,
    type: 'response',
    flags: ((query.flags ?? 0) & ECHOED) | (authoritative ? AA : 0) | rcode,
    questions: query.questions?.slice(0, 1) ?? [],
    answers: sections.answers ?? [],
    authorities: sections.authorities ?? [],
    additionals: opt ? [...additionals, opt] : additionals,
  };
}

/** An answer that carries only an error code (FORMERR, NOTIMP, REFUSED, SERVFAIL), OPT echoed. */
export function errorResponse(query: Packet, rcode: number): Packet {
  const opt = queryOpt(query);
  return response(query, rcode, false, {}, opt && responseOpt(opt));
}

/** BADVERS: the query spoke an EDNS version above 0 (RFC 6891 §6.1.3). */
export function badVersion(query: Packet, opt: OptAnswer): Packet {
  return response(query, RCODE.NOERROR, false, {}, responseOpt(opt, 0, BADVERS_UPPER));
}

/**
 * What the transport sends when the answer does not fit the client's UDP size: header and question,
 * TC set, the OPT kept (RFC 6891 §7), no records, so the client retries over TCP (RFC 7766).
 */
export function truncated(full: Packet): Packet {
  const opt = full.additionals?.find((a) => a.type === 'OPT');
  return {
    id: full.id ?? 0,
    type: 'response',
    flags: (full.flags ?? 0) | TC,
    questions: full.questions ?? [],
    answers: [],
    authorities: [],
    additionals: opt ? [opt] : [],
  };
}

/** The header rcode plus the OPT's extended bits: 16 for BADVERS. */
export function rcodeOf(packet: Packet): number {
  const opt = packet.additionals?.find((a): a is OptAnswer => a.type === 'OPT');
  return ((packet.flags ?? 0) & 0xf) | ((opt?.extendedRcode ?? 0) << 4);
}
