/**
 * TSIG (RFC 8945): messages authenticated with a shared key. A request's TSIG is checked
 * (`checkTsig`); answers are signed with `TsigSigner`, which chains the MACs of a stream of
 * messages as a zone transfer's are (§5.3.1: each message after the first covers the MAC before it
 * and only the timers). dns-packet knows nothing of TSIG: the record is read and written here.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { nameWire } from '../../../domain/dns/serving/names.js';
import { TSIG_ALGORITHMS, type TsigKey } from '../../../schemas/dns-secondaries.js';
import { lastRecordOffset, readName } from './wire.js';

export const TSIG_TYPE = 250;
const CLASS_ANY = 255;
/** Seconds a signature's time may differ from ours (what BIND, NSD and Knot send). */
export const FUDGE = 300;
/** The header RCODE of an answer whose TSIG failed (RFC 8945 §5.2). */
export const RCODE_NOTAUTH = 9;
export const TSIG_ERROR = { BADSIG: 16, BADKEY: 17, BADTIME: 18 } as const;

/** A request's TSIG record, as read. */
export interface TsigRecord {
  keyName: string;
  algorithm: string;
  timeSigned: number;
  fudge: number;
  mac: Buffer;
  originalId: number;
  error: number;
  other: Buffer;
  /** Where the record begins in its message. */
  offset: number;
}

export type TsigCheck =
  | { kind: 'none' }
  | { kind: 'malformed' }
  | { kind: 'valid'; key: TsigKey; record: TsigRecord }
  /** `key` is set when the key is known (BADSIG, BADTIME): the error answer is then signed too (BADTIME) or not (BADSIG). */
  | { kind: 'invalid'; error: number; record: TsigRecord; key?: TsigKey };

/** Reads the message's TSIG (its last record, when of type TSIG). */
export function readTsig(message: Buffer): TsigRecord | undefined | 'malformed' {
  try {
    if (message.readUInt16BE(10) === 0) return undefined;
    const offset = lastRecordOffset(message);
    const owner = readName(message, offset);
    if (message.readUInt16BE(owner.end) !== TSIG_TYPE) return undefined;
    let at = owner.end + 10;
    const algorithm = readName(message, at);
    at = algorithm.end;
    const timeSigned = message.readUInt16BE(at) * 2 ** 32 + message.readUInt32BE(at + 2);
    const fudge = message.readUInt16BE(at + 6);
    const macSize = message.readUInt16BE(at + 8);
    const mac = Buffer.from(message.subarray(at + 10, at + 10 + macSize));
    at += 10 + macSize;
    const originalId = message.readUInt16BE(at);
    const error = message.readUInt16BE(at + 2);
    const otherLength = message.readUInt16BE(at + 4);
    const other = Buffer.from(message.subarray(at + 6, at + 6 + otherLength));
    if (mac.length !== macSize || other.length !== otherLength) return 'malformed';
    return { keyName: owner.name, algorithm: algorithm.name, timeSigned, fudge, mac, originalId, error, other, offset };
  } catch {
    return 'malformed';
  }
}

/** Checks a request's TSIG against the keys (by name), at `now` (seconds since 1970). */
export function checkTsig(message: Buffer, keys: ReadonlyMap<string, TsigKey>, now: number): TsigCheck {
  const record = readTsig(message);
  if (record === undefined) return { kind: 'none' };
  if (record === 'malformed') return { kind: 'malformed' };
  const key = keys.get(record.keyName);
  if (!key || key.algorithm !== record.algorithm) return { kind: 'invalid', error: TSIG_ERROR.BADKEY, record };
  const expected = hmac(key, [unsignedRequest(message, record), variables(key, record.timeSigned, record.fudge, record.error, record.other)]);
  // A truncated MAC is taken down to half the hash, never under 10 bytes (RFC 8945 §5.2.2.1).
  const shortest = Math.max(10, expected.length / 2);
  if (record.mac.length < shortest || record.mac.length > expected.length || !timingSafeEqual(record.mac, expected.subarray(0, record.mac.length))) {
    return { kind: 'invalid', error: TSIG_ERROR.BADSIG, record };
  }
  if (Math.abs(now - record.timeSigned) > record.fudge) return { kind: 'invalid', error: TSIG_ERROR.BADTIME, record, key };
  return { kind: 'valid', key, record };
}

/**
 * Signs the messages of one answer (or a request, without `requestMac`): the first covers the
 * request's MAC and every TSIG variable, each after the one before's MAC and the timers.
 */
export class TsigSigner {
  private previousMac: Buffer | undefined;
  private first = true;

  constructor(
    private readonly key: TsigKey,
    private readonly originalId: number,
    requestMac?: Buffer,
  ) {
    this.previousMac = requestMac;
  }

  /** `message` (no TSIG yet) with its TSIG appended. */
  sign(message: Buffer, now: number, error = 0, other: Buffer = Buffer.alloc(0)): Buffer {
    return withRecord(message, this.record([message], now, error, other));
  }

  /**
   * The TSIG record of the message whose bytes (no TSIG yet) are `message`'s parts one after the
   * other; the message sent is those bytes, the record after them, ARCOUNT one more.
   */
  record(message: readonly Buffer[], now: number, error = 0, other: Buffer = Buffer.alloc(0)): Buffer {
    const parts: Buffer[] = [];
    if (this.previousMac !== undefined) parts.push(lengthOf(this.previousMac), this.previousMac);
    parts.push(...message, this.first ? variables(this.key, now, FUDGE, error, other) : timers(now, FUDGE));
    const mac = hmac(this.key, parts);
    this.previousMac = mac;
    this.first = false;
    return tsigRecord(this.key.name, this.key.algorithm, now, mac, this.originalId, error, other);
  }
}

/** An unsigned error TSIG (BADKEY, BADSIG: the answer cannot be signed, §5.3.2) appended to `message`. */
export function appendUnsignedTsig(message: Buffer, record: TsigRecord, error: number, now: number): Buffer {
  return withRecord(message, tsigRecord(record.keyName, record.algorithm, now, Buffer.alloc(0), record.originalId, error, Buffer.alloc(0)));
}

/** BADTIME's other data: the server's time, so the client sees how far apart the clocks are (§5.2.3). */
export function timeOther(now: number): Buffer {
  return time48(now);
}

function withRecord(message: Buffer, record: Buffer): Buffer {
  const out = Buffer.concat([message, record]);
  out.writeUInt16BE(message.readUInt16BE(10) + 1, 10);
  return out;
}

function tsigRecord(keyName: string, algorithm: string, now: number, mac: Buffer, originalId: number, error: number, other: Buffer): Buffer {
  const owner = nameWire(keyName);
  const rdata = Buffer.concat([nameWire(algorithm), time48(now), u16(FUDGE), lengthOf(mac), mac, u16(originalId), u16(error), lengthOf(other), other]);
  const head = Buffer.alloc(10);
  head.writeUInt16BE(TSIG_TYPE, 0);
  head.writeUInt16BE(CLASS_ANY, 2);
  head.writeUInt32BE(0, 4);
  head.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([owner, head, rdata]);
}

/** The request as it was before its TSIG was added: no TSIG record, one additional less, its original ID. */
function unsignedRequest(message: Buffer, record: TsigRecord): Buffer {
  const before = Buffer.from(message.subarray(0, record.offset));
  before.writeUInt16BE(record.originalId, 0);
  before.writeUInt16BE(before.readUInt16BE(10) - 1, 10);
  return before;
}

function variables(key: TsigKey, time: number, fudge: number, error: number, other: Buffer): Buffer {
  const tail = Buffer.alloc(6);
  tail.writeUInt16BE(CLASS_ANY, 0);
  return Buffer.concat([nameWire(key.name), tail, nameWire(key.algorithm), time48(time), u16(fudge), u16(error), lengthOf(other), other]);
}

const timers = (time: number, fudge: number) => Buffer.concat([time48(time), u16(fudge)]);

function hmac(key: TsigKey, parts: Buffer[]): Buffer {
  const h = createHmac(TSIG_ALGORITHMS[key.algorithm], key.secret);
  for (const part of parts) h.update(part);
  return h.digest();
}

function time48(seconds: number): Buffer {
  const out = Buffer.alloc(6);
  out.writeUInt16BE(Math.floor(seconds / 2 ** 32) & 0xffff, 0);
  out.writeUInt32BE(seconds >>> 0, 2);
  return out;
}

const lengthOf = (bytes: Buffer) => u16(bytes.length);

function u16(value: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value, 0);
  return out;
}
