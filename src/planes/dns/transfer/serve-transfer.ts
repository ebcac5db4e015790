/**
 * Outgoing zone transfers over TCP: AXFR (RFC 5936) and IXFR (RFC 1995), to the configured
 * secondaries alone. A transfer needs both an allowed address and a valid TSIG (RFC 8945) with one
 * of the configured keys; a bad signature, an unknown key or a clock too far off is answered
 * NOTAUTH with the TSIG error (BADSIG, BADKEY, BADTIME), anything else unallowed REFUSED. Every
 * message of an allowed transfer is signed, each MAC chained to the one before.
 */
import type { DecodedPacket } from 'dns-packet';
import type { ZoneSnapshot } from '../../../domain/dns/transfer/zone-snapshot.js';
import type { ZoneTransfers } from '../../../domain/dns/transfer/zone-transfers.js';
import type { Secondary, TsigKey } from '../../../schemas/dns-secondaries.js';
import { headerReply, questionEnd, RCODE } from '../error-replies.js';
import { FLAG, HEADER_BYTES } from '../header.js';
import type { Drained, TransferHandler } from '../options.js';
import { frame, type Send } from '../respond.js';
import { type Body, compressedBodies } from './compress.js';
import { appendUnsignedTsig, checkTsig, RCODE_NOTAUTH, TSIG_ERROR, TsigSigner, timeOther } from './tsig.js';

const AA = 0x0400;

export interface TransferOptions {
  secondaries: readonly Secondary[];
  keys: readonly TsigKey[];
  transfers: ZoneTransfers;
  /** Seconds since 1970 (TSIG times). */
  now?: () => number;
}

export class TransferServer implements TransferHandler {
  private readonly allowed: Set<string>;
  private readonly keys: Map<string, TsigKey>;
  private readonly now: () => number;
  private readonly axfrBodies = new WeakMap<ZoneSnapshot, { headBytes: number; bodies: Body[] }>();

  constructor(private readonly options: TransferOptions) {
    this.allowed = new Set(options.secondaries.map((s) => s.address));
    this.keys = new Map(options.keys.map((k) => [k.name, k]));
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /** The messages' records of the whole zone (AXFR), made once per version. */
  private wholeZone(snapshot: ZoneSnapshot, headBytes: number): Body[] {
    let made = this.axfrBodies.get(snapshot);
    if (made?.headBytes !== headBytes) {
      const records = [snapshot.soa];
      for (const record of snapshot.records) records.push(record.wire);
      records.push(snapshot.soa);
      made = { headBytes, bodies: compressedBodies(records, headBytes) };
      this.axfrBodies.set(snapshot, made);
    }
    return made.bodies;
  }

  /** A secondary's address: its transfers and queries pass the plane's rate limit and per-client connection cap. */
  isSecondary(address: string): boolean {
    return this.allowed.has(address.toLowerCase());
  }

  /** Answers an AXFR or IXFR asked over TCP: every message goes to `send`, framed. */
  handle(message: Buffer, query: DecodedPacket, address: string, send: Send, drained?: Drained): 'answered' | 'malformed' | Promise<void> {
    const now = this.now();
    const check = checkTsig(message, this.keys, now);
    if (check.kind === 'malformed') {
      send(frame(headerReply(message, RCODE.FORMERR)));
      return 'malformed';
    }
    const header = responseHeader(message);
    if (check.kind === 'invalid') {
      const reply = withRcode(header, RCODE_NOTAUTH);
      const signed =
        check.error === TSIG_ERROR.BADTIME && check.key
          ? new TsigSigner(check.key, check.record.originalId, check.record.mac).sign(reply, now, check.error, timeOther(now))
          : appendUnsignedTsig(reply, check.record, check.error, now);
      send(frame(signed));
      return 'answered';
    }
    const signer = check.kind === 'valid' ? new TsigSigner(check.key, check.record.originalId, check.record.mac) : undefined;
    const out = (bytes: Buffer) => send(frame(signer ? signer.sign(bytes, now) : bytes));
    if (!signer || !this.isSecondary(address)) {
      out(withRcode(header, RCODE.REFUSED));
      return 'answered';
    }
    const question = query.questions![0]!;
    const ixfr = question.type === 'IXFR';
    const clientSerial = ixfr ? serialOf(query) : undefined;
    if (ixfr && clientSerial === undefined) {
      out(withRcode(header, RCODE.FORMERR));
      return 'answered';
    }
    const changes = clientSerial === undefined ? undefined : this.options.transfers.changesSince(question.name, clientSerial);
    const snapshot = changes?.snapshot ?? this.options.transfers.snapshot(question.name);
    if (!snapshot) {
      out(withRcode(header, RCODE_NOTAUTH));
      return 'answered';
    }
    let bodies: Body[];
    if (changes?.kind === 'current') bodies = compressedBodies([snapshot.soa], header.length);
    else if (changes?.kind === 'differences') {
      const records = [snapshot.soa];
      for (const d of changes.differences) records.push(d.fromSoa, ...d.removed, d.toSoa, ...d.added);
      records.push(snapshot.soa);
      bodies = compressedBodies(records, header.length);
    } else bodies = this.wholeZone(snapshot, header.length);
    return writeAll(bodies, (body, i) => send(signedMessage(header, body, i === 0, signer, now)), drained);
  }
}

/**
 * Writes every message, waiting whenever the client has not read what came before (a signed zone's
 * transfer is megabytes): synchronous while there is room, a promise from the first wait on.
 */
function writeAll(bodies: readonly Body[], write: (body: Body, i: number) => void, drained: Drained | undefined, from = 0): 'answered' | Promise<void> {
  for (let i = from; i < bodies.length; i++) {
    write(bodies[i]!, i);
    const wait = i + 1 < bodies.length ? drained?.() : undefined;
    // A message that cannot be written later on ends the transfer short: the secondary asks again.
    if (wait)
      return wait
        .then(async (open) => {
          if (open) await writeAll(bodies, write, drained, i + 1);
        })
        .catch(() => undefined);
  }
  return 'answered';
}

/** The client's serial: the SOA an IXFR query carries in its authority section. */
function serialOf(query: DecodedPacket): number | undefined {
  const soa = query.authorities?.find((a) => a.type === 'SOA');
  const serial = (soa?.data as { serial?: unknown } | undefined)?.serial;
  return typeof serial === 'number' ? serial >>> 0 : undefined;
}

/** The answer's header and question: the query's ID and question, QR and AA, no records yet. */
function responseHeader(query: Buffer): Buffer {
  const end = questionEnd(query);
  const out = Buffer.from(query.subarray(0, end === -1 ? HEADER_BYTES : end));
  out.writeUInt16BE(FLAG.QR | AA, 2);
  out.writeUInt16BE(end === -1 ? 0 : 1, 4);
  out.writeUInt32BE(0, 6);
  out.writeUInt16BE(0, 10);
  return out;
}

function withRcode(header: Buffer, rcode: number): Buffer {
  const out = Buffer.from(header);
  out.writeUInt16BE(FLAG.QR | rcode, 2);
  return out;
}

/**
 * A message of the answer, framed and signed, made with one copy of its records: the header, the
 * question in the first only (RFC 5936 §2.2), the records, the TSIG.
 */
function signedMessage(header: Buffer, body: Body, first: boolean, signer: TsigSigner, now: number): Buffer {
  const head = Buffer.from(first ? header : header.subarray(0, HEADER_BYTES));
  if (!first) head.writeUInt16BE(0, 4);
  head.writeUInt16BE(body.count, 6);
  const tsig = signer.record([head, body.bytes], now);
  const length = head.length + body.bytes.length + tsig.length;
  const framed = Buffer.allocUnsafe(2 + length);
  framed.writeUInt16BE(length, 0);
  head.copy(framed, 2);
  framed.writeUInt16BE(head.readUInt16BE(10) + 1, 12);
  body.bytes.copy(framed, 2 + head.length);
  tsig.copy(framed, 2 + head.length + body.bytes.length);
  return framed;
}
