/**
 * Queries over TCP (RFC 7766): each message behind a 2-byte length, any number per connection,
 * pipelined. Answers go out as they are ready, which RFC 7766 §6.2.1.1 allows (clients match them
 * by ID); with an authority answering from memory that is the order of the queries anyway, and a
 * slow answer never holds up the ones behind it.
 *
 * What one connection may hold is bounded: at most one incomplete message (64 KiB) plus the rest
 * of the last chunk read; `maxTcpQueriesInFlight` answers being worked out; and answers the client
 * does not read (over WRITE_BUFFER_BYTES, reading stops until they drain). A length under a
 * header's 12 bytes, or a message that breaks the protocol, closes the connection (after FORMERR
 * when there is an ID to answer).
 *
 * And how long, in time counted from what the client completes rather than from any byte it
 * sends (a byte every few seconds would otherwise hold a connection for ever, RFC 7766 §6.2.3):
 * a message must arrive whole `tcpMessageTimeoutMs` after its first byte; between messages, with
 * no answer being worked out, `tcpIdleTimeoutMs` without a whole query ends the connection; once
 * ended, the client has END_GRACE_MS to close its side. Each client (an IPv4 address, an IPv6 /64,
 * as for the UDP rate limit) holds at most `maxTcpConnectionsPerClient` connections, so that one
 * cannot take all `maxTcpConnections` from the others (RFC 7766 §6.2.2 lets a server limit the
 * connections of one address or subnet); its connections over that are closed at accept.
 */
import type { Socket } from 'node:net';
import type { DnsPlaneSettings, Drained } from './options.js';
import { sourceKey } from './rate-limit.js';
import type { Responder } from './respond.js';
import { HEADER_BYTES } from './header.js';

const WRITE_BUFFER_BYTES = 256 * 1024;
/** After we end a connection, how long the client has to close its side before it is cut. */
const END_GRACE_MS = 2000;

export class TcpConnections {
  private readonly open = new Set<Connection>();
  /** Open connections per client (sourceKey), for the clients that have any. */
  private readonly perClient = new Map<string, number>();
  private closing = false;

  constructor(
    private readonly responder: Responder,
    private readonly settings: DnsPlaneSettings,
  ) {}

  accept(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const client = sourceKey(address);
    const held = this.perClient.get(client) ?? 0;
    const cap = this.settings.maxTcpConnectionsPerClient;
    if (cap > 0 && held >= cap && !this.responder.isSecondary(address)) {
      socket.on('error', () => {});
      socket.destroy();
      return;
    }
    this.perClient.set(client, held + 1);
    const connection = new Connection(socket, address, this.responder, this.settings);
    this.open.add(connection);
    socket.once('close', () => {
      this.open.delete(connection);
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    });
    if (this.closing) connection.finish();
  }

  /** Every connection answers what it has started, then ends. */
  finishAll(): void {
    this.closing = true;
    for (const connection of this.open) connection.finish();
  }

  destroyAll(): void {
    this.closing = true;
    for (const connection of this.open) connection.destroy();
  }
}

/** What a connection waits for, which decides its deadline. */
type Waiting =
  /** A query, with nothing in flight: `tcpIdleTimeoutMs` from when it began to wait. */
  | 'query'
  /** The rest of a message begun: `tcpMessageTimeoutMs` from its first byte. */
  | 'rest'
  /** Its own answers being worked out: no deadline (the client is not the one holding it up). */
  | 'answers'
  /** Ended: END_GRACE_MS for the client to close its side. */
  | 'close';

class Connection {
  /** Bytes read but not yet handled: an incomplete message, or messages waiting for room. */
  private pending: Buffer | null = null;
  private inFlight = 0;
  /** No more queries are read: the connection ends once the ones in flight are answered. */
  private finishing = false;
  private readonly send: (bytes: Buffer) => void;
  private waiting: Waiting = 'query';
  private deadline: NodeJS.Timeout | undefined;
  private deadlineMs = 0;

  constructor(
    private readonly socket: Socket,
    private readonly address: string,
    private readonly responder: Responder,
    private readonly settings: DnsPlaneSettings,
  ) {
    // Answers are whole messages: Nagle's delay would only hold back the next pipelined one.
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('drain', () => this.handlePending());
    // Resets and broken pipes are how clients leave; 'close' follows and cleans up.
    socket.on('error', () => {});
    socket.once('close', () => this.disarm());
    this.send = (bytes) => {
      if (!socket.destroyed && socket.writable) socket.write(bytes);
    };
    this.arm(settings.tcpIdleTimeoutMs);
  }

  private receive(chunk: Buffer): void {
    if (this.finishing) return;
    this.pending = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    this.handlePending();
  }

  private handlePending(): void {
    const data = this.pending;
    if (data === null || this.finishing) return;
    let offset = 0;
    while (data.length - offset >= 2 && !this.finishing && this.hasRoom()) {
      const length = data.readUInt16BE(offset);
      if (length < HEADER_BYTES) {
        this.finish();
        return;
      }
      if (data.length - offset - 2 < length) break;
      const message = data.subarray(offset + 2, offset + 2 + length);
      offset += 2 + length;
      this.handle(message);
    }
    // A message that ended the connection: finish() has let go of the rest and reads on to see the close.
    if (this.finishing) return;
    this.pending = offset === data.length ? null : data.subarray(offset);
    if (this.hasRoom()) this.socket.resume();
    else this.socket.pause();
    this.schedule(offset > 0);
  }

  private hasRoom(): boolean {
    return this.inFlight < this.settings.maxTcpQueriesInFlight && this.socket.writableLength < WRITE_BUFFER_BYTES;
  }

  private handle(message: Buffer): void {
    const handled = this.responder.handle(message, this.address, 'tcp', this.send, this.drained);
    if (handled === 'answered') return;
    if (handled === 'malformed' || handled === 'dropped') {
      this.finish();
      return;
    }
    this.inFlight++;
    void handled.finally(() => {
      this.inFlight--;
      if (this.finishing) this.endIfDone();
      else if (this.pending !== null) this.handlePending();
      else this.schedule(false);
    });
  }

  /**
   * Room for a long answer's next bytes (a zone transfer's messages): none while what is written
   * waits over WRITE_BUFFER_BYTES, until the client reads; a client that reads nothing for
   * `tcpIdleTimeoutMs` is cut.
   */
  private readonly drained: Drained = () => {
    const socket = this.socket;
    if (socket.destroyed) return Promise.resolve(false);
    if (socket.writableLength < WRITE_BUFFER_BYTES) return undefined;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        socket.off('drain', done);
        socket.off('close', done);
        resolve(!socket.destroyed);
      };
      const timer = setTimeout(() => socket.destroy(), this.settings.tcpIdleTimeoutMs);
      timer.unref();
      socket.on('drain', done);
      socket.on('close', done);
    });
  };

  /**
   * Sets the deadline for what the connection now waits for; `took`: whole messages were just
   * taken, so a wait for a query or for a message's rest starts again from now.
   */
  private schedule(took: boolean): void {
    if (this.finishing) return;
    // Bytes left while there is room to read on are a message begun; without room, the messages
    // waiting are whole, held up by answers in flight or by a client that does not read its answers.
    const waiting: Waiting = this.pending !== null && this.hasRoom() ? 'rest' : this.inFlight > 0 ? 'answers' : 'query';
    if (waiting === this.waiting && !took) return;
    this.waiting = waiting;
    if (waiting === 'answers') this.disarm();
    else this.arm(waiting === 'rest' ? this.settings.tcpMessageTimeoutMs : this.settings.tcpIdleTimeoutMs);
  }

  private arm(ms: number): void {
    if (this.deadline !== undefined && this.deadlineMs === ms) {
      this.deadline.refresh();
      return;
    }
    clearTimeout(this.deadline);
    this.deadlineMs = ms;
    this.deadline = setTimeout(() => this.expired(), ms);
    this.deadline.unref();
  }

  private disarm(): void {
    clearTimeout(this.deadline);
    this.deadline = undefined;
  }

  /** No whole query in time (none, or one begun and not finished): the connection ends; once ended, it is cut. */
  private expired(): void {
    this.deadline = undefined;
    if (this.waiting === 'close') this.destroy();
    else this.finish();
  }

  finish(): void {
    if (this.finishing) return;
    this.finishing = true;
    this.pending = null;
    this.disarm();
    // Still read, so the client's close is seen; what it sends is ignored.
    this.socket.resume();
    this.endIfDone();
  }

  /** Ends the connection once the answers in flight are sent (an answer still being worked out is waited for). */
  private endIfDone(): void {
    if (this.inFlight > 0 || this.socket.writableEnded) return;
    this.socket.end();
    this.waiting = 'close';
    this.arm(END_GRACE_MS);
  }

  destroy(): void {
    this.socket.destroy();
  }
}
