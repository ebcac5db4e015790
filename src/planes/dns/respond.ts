/**
 * One message in, at most one message out, the same way over both transports: read the query,
 * ask the authority, write the answer, then tell `onAnswered`. The authority usually answers at
 * once; then so does this, with no promise on the way.
 */
import type { DecodedPacket } from 'dns-packet';
import type { Answered, Authority, QueryContext } from '../../domain/dns/serving/types.js';
import { AnswerCache, type CacheableAuthority } from './answer-cache.js';
import { headerReply, RCODE } from './error-replies.js';
import type { AnswerTally, DnsPlaneSettings, Drained } from './options.js';
import { readQuery } from './read-query.js';
import { type Framing, writeAnswer } from './write-answer.js';

/** `malformed` and `dropped` close a TCP connection; a promise is an answer still being worked out. */
export type Handled = 'answered' | 'dropped' | 'malformed' | Promise<void>;

export type Send = (bytes: Buffer) => void;

const TCP_MAX_SIZE = 65535;

export class Responder {
  private readonly cache: AnswerCache | undefined;

  constructor(
    private readonly authority: Authority & CacheableAuthority,
    private readonly settings: DnsPlaneSettings,
  ) {
    this.cache = AnswerCache.usable(authority, settings.answerCacheSize) ? new AnswerCache(authority, settings.answerCacheSize) : undefined;
  }

  /**
   * A UDP query the cache can answer: the bytes to send back (reported already), or undefined to go
   * through `handle`. Apart from `handle` so that a hit, most of a busy server's queries, allocates
   * no closure.
   */
  fromCache(message: Buffer, address: string, now: number): Buffer | undefined {
    const cache = this.cache;
    const key = cache?.keyOf(message);
    if (key === undefined) return undefined;
    const hit = cache!.get(key, message, now);
    if (hit === undefined) return undefined;
    if (hit.tally !== undefined) this.count(hit.tally, plainAddress(address), 'udp');
    return AnswerCache.answerTo(message, hit);
  }

  /** Whether the client is a secondary (see DnsPlaneOptions.transfers): limits leave it alone. */
  isSecondary(address: string): boolean {
    return this.settings.transfers?.isSecondary(plainAddress(address)) ?? false;
  }

  /**
   * `send` gets bytes ready for the socket (TCP: length prefix included). UDP asks `fromCache`
   * first. TCP gives `drained`, which a zone transfer waits on between its messages.
   */
  handle(message: Buffer, address: string, transport: 'udp' | 'tcp', send: Send, drained?: Drained): Handled {
    const key = transport === 'udp' ? this.cache?.keyOf(message) : undefined;
    const incoming = readQuery(message, this.settings.maxUdpSize);
    if (incoming.kind === 'drop') return 'dropped';
    if (incoming.kind === 'reply') {
      send(transport === 'tcp' ? frame(incoming.bytes) : incoming.bytes);
      return incoming.malformed ? 'malformed' : 'answered';
    }
    const transfers = this.settings.transfers;
    const qtype = incoming.query.questions?.[0]?.type;
    if (transfers && transport === 'tcp' && (qtype === 'AXFR' || qtype === 'IXFR'))
      return transfers.handle(message, incoming.query, plainAddress(address), send, drained);
    const maxSize = transport === 'udp' ? incoming.maxSize : TCP_MAX_SIZE;
    const context: QueryContext = { address: plainAddress(address), transport, maxSize, dnssecOk: incoming.dnssecOk };
    const framing: Framing = { transport, maxSize, edns: incoming.edns, dnssecOk: incoming.dnssecOk, maxUdpSize: this.settings.maxUdpSize };
    let answered: Answered | Promise<Answered>;
    try {
      answered = this.authority.answer(incoming.query, context);
    } catch (error) {
      this.fail(error, message, transport, send);
      return 'answered';
    }
    if (isPromise(answered)) {
      return answered.then(
        (result) => void this.deliver(result, incoming.query, this.tallyOf(result, incoming.query), context, framing, message, send),
        (error: unknown) => this.fail(error, message, transport, send),
      );
    }
    const tally = this.tallyOf(answered, incoming.query);
    const bytes = this.deliver(answered, incoming.query, tally, context, framing, message, send);
    if (key !== undefined && bytes !== null) {
      const answer = { bytes, answered, generation: this.authority.generation ?? 0, tally };
      this.cache!.offer(key, message, answer, performance.now());
    }
    return 'answered';
  }

  /** The bytes sent, or null when the answer could not be encoded (SERVFAIL was sent). */
  private deliver(
    answered: Answered,
    query: DecodedPacket,
    tally: AnswerTally | undefined,
    context: QueryContext,
    framing: Framing,
    message: Buffer,
    send: Send,
  ): Buffer | null {
    const bytes = writeAnswer(answered.response, query.id ?? 0, framing);
    if (bytes === null) {
      this.fail(new Error(`the answer to ${query.questions?.[0]?.name} ${query.questions?.[0]?.type} could not be encoded`), message, framing.transport, send);
      return null;
    }
    send(bytes);
    if (tally !== undefined) this.count(tally, context.address, context.transport);
    return bytes;
  }

  private tallyOf(answered: Answered, query: DecodedPacket): AnswerTally | undefined {
    try {
      return this.settings.tallyOf?.(answered, query);
    } catch (error) {
      this.settings.logError(error);
      return undefined;
    }
  }

  private count(tally: AnswerTally, address: string, transport: 'udp' | 'tcp'): void {
    try {
      tally.count(address, transport);
    } catch (error) {
      this.settings.logError(error);
    }
  }

  private fail(error: unknown, message: Buffer, transport: 'udp' | 'tcp', send: Send): void {
    this.settings.logError(error);
    const reply = headerReply(message, RCODE.SERVFAIL);
    send(transport === 'tcp' ? frame(reply) : reply);
  }
}

export function frame(bytes: Buffer): Buffer {
  const framed = Buffer.allocUnsafe(bytes.length + 2);
  framed.writeUInt16BE(bytes.length, 0);
  bytes.copy(framed, 2);
  return framed;
}

function isPromise(value: Answered | Promise<Answered>): value is Promise<Answered> {
  return typeof (value as Partial<PromiseLike<Answered>>).then === 'function';
}

/** A dual-stack socket reports IPv4 clients as `::ffff:192.0.2.1`; logs and answers want `192.0.2.1`. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
