/**
 * Queries over UDP: one datagram, one answer to its source. Sources over their rate limit get
 * nothing, or every so often an empty truncated answer (see rate-limit.ts).
 */
import dgram from 'node:dgram';
import { isIP } from 'node:net';
import { headerReply, RCODE } from './error-replies.js';
import type { SourceRateLimit } from './rate-limit.js';
import type { Responder } from './respond.js';
import { EndOfTurn } from '../common/turn-writes.js';

/**
 * A flood arriving faster than one event loop turn drains it waits in the kernel; the default
 * buffer (about 200 KiB) overflows within milliseconds at benchmark rates. Linux caps this at
 * net.core.rmem_max without an error.
 */
const RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;

/** `host`: an IP literal (listen.ts resolves a name before it binds). */
export function createUdpSocket(host: string): dgram.Socket {
  const family = isIP(host) === 6 ? 6 : 4;
  return dgram.createSocket({ type: family === 6 ? 'udp6' : 'udp4', recvBufferSize: RECEIVE_BUFFER_BYTES, lookup: literal(family) });
}

/**
 * The socket's only addresses are IP literals of its own family: the one it binds, and those the
 * kernel reported queries from, where the answers go. Resolving them through dns.lookup (the
 * default) would cost a deferred callback per answer, and even checking them (`net.isIP`, a
 * regular expression) cost 0.7% of the plane's time under load: they are passed through.
 */
const literal =
  (family: 4 | 6): NonNullable<dgram.SocketOptions['lookup']> =>
  (address, _options, callback) =>
    callback(null, address, family);

export class UdpServer {
  private inFlight = 0;
  private closing = false;
  /** No answer is sent any more. */
  private closed = false;
  private socketClosed = false;
  private readonly waiting: (() => void)[] = [];
  /** Answers made this turn, sent together at its end (see `sendTo`). */
  private readonly turn = new EndOfTurn();

  constructor(
    private readonly socket: dgram.Socket,
    private readonly responder: Responder,
    private readonly limiter: SourceRateLimit | undefined,
    logError: (error: unknown) => void,
  ) {
    socket.on('message', (message, remote) => this.receive(message, remote));
    // Without a listener a send failure would be thrown from the socket and stop the process.
    socket.on('error', logError);
  }

  private receive(message: Buffer, remote: dgram.RemoteInfo): void {
    if (this.closing) return;
    const now = performance.now();
    if (this.limiter !== undefined) {
      const verdict = this.limiter.check(remote.address, now);
      if (verdict !== 'pass') {
        if (verdict === 'slip' && isQuery(message)) this.sendTo(remote, headerReply(message, RCODE.NOERROR, { truncated: true }));
        return;
      }
    }
    const cached = this.responder.fromCache(message, remote.address, now);
    if (cached !== undefined) {
      this.sendTo(remote, cached);
      return;
    }
    const send = (bytes: Buffer) => this.sendTo(remote, bytes);
    const handled = this.responder.handle(message, remote.address, 'udp', send);
    if (typeof handled === 'string') return;
    this.inFlight++;
    void handled.finally(() => {
      if (--this.inFlight === 0 && this.closing) {
        this.turn.runNow();
        this.closeNow();
      }
    });
  }

  /**
   * Answers leave at the end of the event loop's turn, all of the turn's together: sent one by one
   * as each is made, each woke the client's receiving side on its own, a wake-up paid inside the
   * server's send on loopback. A bare Node responder answered 24% more queries a second this way
   * (BENCHMARKS.md); a quiet server's answer leaves as soon as the turn's I/O has been read.
   */
  private sendTo(remote: dgram.RemoteInfo, bytes: Buffer): void {
    if (this.closed) return;
    this.turn.defer(() => {
      if (!this.closed) this.socket.send(bytes, remote.port, remote.address);
    });
  }

  /** Stops taking queries, waits for the answers still being worked out, then closes the socket. */
  close(): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve) => (this.socketClosed ? resolve() : this.waiting.push(resolve)));
    if (this.inFlight === 0) {
      this.turn.runNow();
      this.closeNow();
    }
    return closed;
  }

  /** Closes at once: answers still being worked out are not sent. */
  closeNow(): void {
    this.closing = true;
    if (this.closed) return;
    this.closed = true;
    this.socket.close(() => {
      this.socketClosed = true;
      for (const resolve of this.waiting.splice(0)) resolve();
    });
  }
}

function isQuery(message: Buffer): boolean {
  return message.length >= 12 && (message.readUInt8(2) & 0x80) === 0;
}
