/**
 * Wire out: encodes the authority's response for one transport. Over UDP an answer bigger than the
 * client takes is replaced by an empty one with TC set (RFC 2181 §9: a partial RRset would be
 * cached as the whole), and the client asks again over TCP. The OPT record follows the query's
 * (RFC 6891: one in the answer exactly when the query had one, the DO bit echoed).
 */
import { encode, encodingLength, type OptAnswer, type Packet } from 'dns-packet';
import { FLAG } from './header.js';

const QR_HIGH_BYTE = 0x80;
const DO = 0x8000;
const MAX_MESSAGE = 65535;
/**
 * Encoding target reused by every answer: one allocation of the largest message instead of one
 * per answer. Answers are copied out of it before they are handed to a socket (a send may be
 * queued, and the next answer overwrites this), so nothing asynchronous ever reads it.
 */
const scratch = Buffer.allocUnsafe(2 + MAX_MESSAGE);

export interface Framing {
  transport: 'udp' | 'tcp';
  /** Largest answer the client takes (UDP; TCP: 65535). */
  maxSize: number;
  /** The query carried OPT; with its DO bit. */
  edns: boolean;
  dnssecOk: boolean;
  /** Payload size our own OPT advertises. */
  maxUdpSize: number;
}

/** The answer's bytes (TCP: with their length prefix), or null when the response cannot be encoded (a bug upstream: answer SERVFAIL). */
export function writeAnswer(response: Packet, id: number, framing: Framing): Buffer | null {
  const packet = withOpt(response, framing);
  let length = encodeInto(packet);
  if (length === null) return null;
  if (length > framing.maxSize) {
    length = encodeInto({
      id,
      type: 'response',
      flags: (packet.flags ?? 0) | FLAG.TC,
      questions: packet.questions ?? [],
      additionals: (packet.additionals ?? []).filter((record) => record.type === 'OPT'),
    });
    if (length === null) return null;
  }
  // ID and QR are the transport's whatever the authority set, so its responses can be shared between queries.
  scratch.writeUInt16BE(id, 2);
  scratch.writeUInt8(scratch.readUInt8(4) | QR_HIGH_BYTE, 4);
  if (framing.transport === 'udp') return copy(2, 2 + length);
  scratch.writeUInt16BE(length, 0);
  return copy(0, 2 + length);
}

/** Bytes encoded at offset 2; MAX_MESSAGE + 1 when the answer is too big for any message. */
function encodeInto(packet: Packet): number | null {
  try {
    encode(packet, scratch, 2);
    // A name written past the end is cut short silently; the length still counts it.
    return Math.min(encode.bytes, MAX_MESSAGE + 1);
  } catch (error) {
    if (!(error instanceof RangeError)) return null;
    // Out of room, or out of range because a value is wrong: only the full length tells which.
    try {
      return encodingLength(packet) > MAX_MESSAGE ? MAX_MESSAGE + 1 : null;
    } catch {
      return null;
    }
  }
}

function withOpt(response: Packet, framing: Framing): Packet {
  const additionals = response.additionals ?? [];
  const has = additionals.some((record) => record.type === 'OPT');
  if (has === framing.edns) return response;
  if (has) return { ...response, additionals: additionals.filter((record) => record.type !== 'OPT') };
  const opt = { name: '.', type: 'OPT', udpPayloadSize: framing.maxUdpSize, flags: framing.dnssecOk ? DO : 0 } as OptAnswer;
  return { ...response, additionals: [...additionals, opt] };
}

function copy(start: number, end: number): Buffer {
  const out = Buffer.allocUnsafe(end - start);
  scratch.copy(out, 0, start, end);
  return out;
}
