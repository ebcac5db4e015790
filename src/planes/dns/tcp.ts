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
 * when there is an ID to answer). So does `tcpIdleTimeoutMs` without a query.
 */
import type { Socket } from 'node:net';
import type { DnsPlaneSettings } from './options.js';
import type { Responder } from './respond.js';

const HEADER = 12;
const WRITE_BUFFER_BYTES = 256 * 1024;
/** After we end a connection, how long the client has to close its side before it is cut. */
const END_GRACE_MS = 2000;

export class TcpConnections {
  private readonly open = new Set<Connection>();
  private closing = false;

  constructor(
    private readonly responder: Responder,
    private readonly settings: DnsPlaneSettings,
  ) {}

  accept(socket: Socket): void {
    const connection = new Connection(socket, this.responder, this.settings);
    this.open.add(connection);
    socket.once('close', () => this.open.delete(connection));
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

class Connection {
  /** Bytes read but not yet handled: an incomplete message, or messages waiting for room. */
  private pending: Buffer | null = null;
  private inFlight = 0;
  /** No more queries are read: the connection ends once the ones in flight are answered. */
  private finishing = false;
  private readonly send: (bytes: Buffer) => void;
  private readonly address: string;

  constructor(
    private readonly socket: Socket,
    private readonly responder: Responder,
    private readonly settings: DnsPlaneSettings,
  ) {
    // Answers are whole messages: Nagle's delay would only hold back the next pipelined one.
    socket.setNoDelay(true);
    socket.setTimeout(settings.tcpIdleTimeoutMs);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('timeout', () => this.timedOut());
    socket.on('drain', () => this.handlePending());
    // Resets and broken pipes are how clients leave; 'close' follows and cleans up.
    socket.on('error', () => {});
    this.address = socket.remoteAddress ?? '';
    this.send = (bytes) => {
      if (!socket.destroyed && socket.writable) socket.write(bytes);
    };
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
      if (length < HEADER) {
        this.finish();
        return;
      }
      if (data.length - offset - 2 < length) break;
      const message = data.subarray(offset + 2, offset + 2 + length);
      offset += 2 + length;
      this.handle(message);
    }
    this.pending = offset === data.length ? null : data.subarray(offset);
    if (this.hasRoom()) this.socket.resume();
    else this.socket.pause();
  }

  private hasRoom(): boolean {
    return this.inFlight < this.settings.maxTcpQueriesInFlight && this.socket.writableLength < WRITE_BUFFER_BYTES;
  }

  private handle(message: Buffer): void {
    const handled = this.responder.handle(message, this.address, 'tcp', this.send);
    if (handled === 'answered') return;
    if (handled === 'malformed' || handled === 'dropped') {
      this.finish();
      return;
    }
    this.inFlight++;
    void handled.finally(() => {
      this.inFlight--;
      if (this.finishing) this.endIfDone();
      else this.handlePending();
    });
  }

  /** Idle: no query for a while, or, once ended, no close from the client. An answer still being worked out is waited for. */
  private timedOut(): void {
    if (this.socket.writableEnded) this.destroy();
    else if (this.inFlight === 0) this.finish();
  }

  finish(): void {
    if (this.finishing) return;
    this.finishing = true;
    this.pending = null;
    // Still read, so the client's close is seen; what it sends is ignored.
    this.socket.resume();
    this.endIfDone();
  }

  private endIfDone(): void {
    if (this.inFlight > 0 || this.socket.writableEnded) return;
    this.socket.end();
    this.socket.setTimeout(END_GRACE_MS);
  }

  destroy(): void {
    this.socket.destroy();
  }
}
