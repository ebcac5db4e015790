/**
 * Just enough reading of a DNS message's bytes for TSIG, which dns-packet does not know: where its
 * last record starts (TSIG must be the last), and names, compressed or not.
 */
import { HEADER_BYTES } from '../header.js';

/** A name at `offset`: its text (lower case, no final dot; `.` for the root) and where it ends in the message. */
export function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  let end = -1;
  for (let jumps = 0; jumps < 64; ) {
    const length = byteAt(message, at);
    if (length === 0) {
      if (end === -1) end = at + 1;
      return { name: labels.length === 0 ? '.' : labels.join('.').toLowerCase(), end };
    }
    if ((length & 0xc0) === 0xc0) {
      if (end === -1) end = at + 2;
      at = ((length & 0x3f) << 8) | byteAt(message, at + 1);
      jumps++;
      continue;
    }
    if (length > 63 || at + 1 + length > message.length) throw new RangeError('bad name');
    labels.push(message.toString('latin1', at + 1, at + 1 + length));
    at += 1 + length;
  }
  throw new RangeError('name pointers loop');
}

/** The offset where the message's last record begins, or -1 when it has none; throws on a message cut short. */
export function lastRecordOffset(message: Buffer): number {
  const counts = [4, 6, 8, 10].map((at) => message.readUInt16BE(at));
  let at = HEADER_BYTES;
  for (let q = 0; q < counts[0]!; q++) at = readName(message, at).end + 4;
  const records = counts[1]! + counts[2]! + counts[3]!;
  let last = -1;
  for (let r = 0; r < records; r++) {
    last = at;
    const nameEnd = readName(message, at).end;
    if (nameEnd + 10 > message.length) throw new RangeError('record cut short');
    at = nameEnd + 10 + message.readUInt16BE(nameEnd + 8);
  }
  if (at > message.length) throw new RangeError('record cut short');
  return last;
}

function byteAt(message: Buffer, at: number): number {
  if (at >= message.length) throw new RangeError('message cut short');
  return message[at]!;
}
