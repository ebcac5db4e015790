/**
 * The records of a zone transfer cut into messages, names compressed (RFC 1035 §4.1.4) as every
 * name server compresses its transfers: an owner name, and a name in the RDATA of the types RFC
 * 3597 §4 allows (NS, CNAME, SOA, PTR, MX), points back to an earlier occurrence of its longest
 * known suffix in the same message. A pointer reaches the first 16 KiB of a message only: names
 * written later are not pointed at. Names are matched byte for byte (case included), so a
 * secondary reads every name exactly as it was encoded.
 */
import { HEADER_BYTES } from '../header.js';

/** Bytes of records per message: room for the header, the question and the TSIG under the 64 KiB limit. */
export const MESSAGE_BYTES = 60 * 1024;
/** A pointer's 14 bits. */
const POINTER_REACH = 0x4000;
/** RR types whose RDATA names may be compressed, with where the names lie: [type, names, then bytes of fixed data]. */
const RDATA_NAMES = new Map<number, { names: number; before: number }>([
  [2, { names: 1, before: 0 }], // NS
  [5, { names: 1, before: 0 }], // CNAME
  [6, { names: 2, before: 0 }], // SOA: MNAME, RNAME, then the five numbers
  [12, { names: 1, before: 0 }], // PTR
  [15, { names: 1, before: 2 }], // MX: PREFERENCE, then EXCHANGE
]);

/** The records of one message, and how many. */
export interface Body {
  count: number;
  bytes: Buffer;
}

/**
 * `records` (each in uncompressed wire form: owner, type, class, TTL, RDLENGTH, RDATA) cut into
 * message bodies of at most `messageBytes`; the first body follows `firstHeadBytes` of header and
 * question, the others a bare header.
 */
export function compressedBodies(records: readonly Buffer[], firstHeadBytes: number, messageBytes = MESSAGE_BYTES): Body[] {
  const bodies: Body[] = [];
  const scratch = Buffer.allocUnsafe(messageBytes);
  let writer = new BodyWriter(scratch, firstHeadBytes);
  for (const record of records) {
    // A record never grows when compressed: its own length is room enough.
    if (writer.length + record.length > messageBytes && writer.count > 0) {
      bodies.push(writer.body());
      writer = new BodyWriter(scratch, HEADER_BYTES);
    }
    writer.add(record);
  }
  bodies.push(writer.body());
  return bodies;
}

class BodyWriter {
  /** Names already written in this message, by their wire bytes (from a label to the root), and where. */
  private readonly names = new Map<string, number>();
  length = 0;
  count = 0;

  constructor(
    private out: Buffer,
    /** Where the body starts in its message. */
    private readonly base: number,
  ) {}

  add(record: Buffer): void {
    if (this.length + record.length > this.out.length) {
      const larger = Buffer.allocUnsafe(this.length + record.length);
      this.out.copy(larger, 0, 0, this.length);
      this.out = larger;
    }
    let at = this.name(record, 0);
    const type = record.readUInt16BE(at);
    const rdataLength = record.readUInt16BE(at + 8);
    const rdata = at + 10;
    const layout = RDATA_NAMES.get(type);
    if (layout === undefined) {
      this.copy(record, at, rdata + rdataLength);
    } else {
      this.copy(record, at, rdata);
      const lengthAt = this.length - 2;
      const start = this.length;
      this.copy(record, rdata, rdata + layout.before);
      at = rdata + layout.before;
      for (let i = 0; i < layout.names; i++) at = this.name(record, at);
      this.copy(record, at, rdata + rdataLength);
      this.out.writeUInt16BE(this.length - start, lengthAt);
    }
    this.count++;
  }

  /** The message's records so far, copied out of the scratch buffer. */
  body(): Body {
    return { count: this.count, bytes: Buffer.from(this.out.subarray(0, this.length)) };
  }

  /** Writes the uncompressed name at `start` of `source`, compressed; returns where it ends in `source`. */
  private name(source: Buffer, start: number): number {
    let end = start;
    while (source[end] !== 0) end += 1 + source[end]!;
    end++;
    for (let at = start; at < end - 1; at += 1 + source[at]!) {
      const suffix = source.toString('latin1', at, end);
      const target = this.names.get(suffix);
      if (target !== undefined) {
        this.out.writeUInt16BE(0xc000 | target, this.length);
        this.length += 2;
        return end;
      }
      const here = this.base + this.length;
      if (here < POINTER_REACH) this.names.set(suffix, here);
      this.copy(source, at, at + 1 + source[at]!);
    }
    this.out[this.length++] = 0;
    return end;
  }

  private copy(source: Buffer, from: number, to: number): void {
    source.copy(this.out, this.length, from, to);
    this.length += to - from;
  }
}
