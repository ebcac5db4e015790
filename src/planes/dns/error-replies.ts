/**
 * Answers written straight from the query's bytes, without decoding it: the errors (FORMERR,
 * NOTIMP, SERVFAIL, BADVERS) and the rate limiter's empty truncated answers. They must work on
 * packets dns-packet cannot read, and they are never bigger than the query they answer, so a
 * spoofed source gains nothing by provoking them.
 */
import { FLAG, HEADER_BYTES } from './header.js';

export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NOTIMP: 4, REFUSED: 5 } as const;

const { QR, OPCODE, TC, RD } = FLAG;
const MAX_NAME = 255;
/** BADVERS (16) is an extended RCODE: its upper 8 bits go in the OPT record, its lower 4 (0) in the header. */
const BADVERS_HIGH_BITS = 1;

/**
 * The end offset of the first question when it is well formed without compression (a pointer in
 * the first name can only point into the header), or -1.
 */
export function questionEnd(message: Buffer): number {
  let offset = HEADER_BYTES;
  while (offset < message.length) {
    const length = message[offset]!;
    if (length === 0) {
      offset += 1;
      return offset - HEADER_BYTES <= MAX_NAME && offset + 4 <= message.length ? offset + 4 : -1;
    }
    if (length > 63) return -1;
    offset += length + 1;
  }
  return -1;
}

/**
 * A header-only reply (plus the question when it is readable): same ID, opcode and RD as the
 * query, QR set, the given RCODE, and TC when asked. Needs at least the 12 header bytes.
 */
export function headerReply(query: Buffer, rcode: number, options: { truncated?: boolean; echoQuestion?: boolean } = {}): Buffer {
  const end = options.echoQuestion === false || query.readUInt16BE(4) !== 1 ? -1 : questionEnd(query);
  const reply = Buffer.alloc(end === -1 ? HEADER_BYTES : end);
  if (end !== -1) {
    query.copy(reply, HEADER_BYTES, HEADER_BYTES, end);
    reply.writeUInt16BE(1, 4);
  }
  reply.writeUInt16BE(query.readUInt16BE(0), 0);
  reply.writeUInt16BE(QR | (query.readUInt16BE(2) & (OPCODE | RD)) | (options.truncated ? TC : 0) | rcode, 2);
  return reply;
}

/** RFC 6891 §6.1.3: a query of an EDNS version above 0 is answered BADVERS, with an OPT of version 0. */
export function badVersionReply(query: Buffer, maxUdpSize: number): Buffer {
  const base = headerReply(query, RCODE.NOERROR);
  const reply = Buffer.alloc(base.length + 11);
  base.copy(reply);
  reply.writeUInt16BE(1, 10);
  const opt = base.length;
  reply.writeUInt16BE(41, opt + 1);
  reply.writeUInt16BE(maxUdpSize, opt + 3);
  reply.writeUInt8(BADVERS_HIGH_BITS, opt + 5);
  return reply;
}
