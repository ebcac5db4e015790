/**
 * Wire in: turns the bytes of one DNS message into a query the authority can answer, or into the
 * reply an unanswerable message gets (FORMERR, NOTIMP, BADVERS), or into nothing at all. Never
 * throws: whatever arrives, the server goes on.
 */
import { type DecodedPacket, decode, type OptAnswer } from 'dns-packet';
import { badVersionReply, headerReply, RCODE } from './error-replies.js';

export type Incoming =
  | { kind: 'query'; query: DecodedPacket /** UDP answer size the client takes. */; maxSize: number; dnssecOk: boolean; edns: boolean }
  /** `malformed`: the message broke the protocol (a TCP connection is closed after the reply). */
  | { kind: 'reply'; bytes: Buffer; malformed: boolean }
  | { kind: 'drop' };

const DROP: Incoming = { kind: 'drop' };
const QR = 0x8000;
const DO = 0x8000;
const CLASSIC_UDP_SIZE = 512;

export function readQuery(message: Buffer, maxUdpSize: number): Incoming {
  // Too short to carry an ID to answer to; and a response is never answered, or two servers could
  // bounce errors at each other forever (a spoofed source makes that easy).
  if (message.length < 12 || (message.readUInt16BE(2) & QR) !== 0) return DROP;
  if ((message.readUInt16BE(2) & 0x7800) !== 0) return reply(headerReply(message, RCODE.NOTIMP), false);
  // Checked before decoding: dns-packet allocates arrays of whatever the counts claim.
  const questions = message.readUInt16BE(4);
  const answers = message.readUInt16BE(6);
  const authorities = message.readUInt16BE(8);
  const additionals = message.readUInt16BE(10);
  // One question (RFC 9619); no answers in a query; an authority only in IXFR; OPT and TSIG at most.
  if (questions !== 1 || answers !== 0 || authorities > 1 || additionals > 2) return formErr(message);
  let query: DecodedPacket;
  try {
    query = decode(message);
  } catch {
    return formErr(message);
  }
  let opt: OptAnswer | undefined;
  for (const record of query.additionals ?? []) {
    if (record.type !== 'OPT') continue;
    // RFC 6891 §6.1.1: one OPT at most, owned by the root.
    if (opt !== undefined || record.name !== '.') return formErr(message);
    opt = record;
  }
  if (opt === undefined) return { kind: 'query', query, maxSize: CLASSIC_UDP_SIZE, dnssecOk: false, edns: false };
  if (opt.ednsVersion !== 0) return reply(badVersionReply(message, maxUdpSize), false);
  const maxSize = Math.min(maxUdpSize, Math.max(CLASSIC_UDP_SIZE, opt.udpPayloadSize));
  return { kind: 'query', query, maxSize, dnssecOk: (opt.flags & DO) !== 0, edns: true };
}

function formErr(message: Buffer): Incoming {
  return reply(headerReply(message, RCODE.FORMERR), true);
}

function reply(bytes: Buffer, malformed: boolean): Incoming {
  return { kind: 'reply', bytes, malformed };
}
