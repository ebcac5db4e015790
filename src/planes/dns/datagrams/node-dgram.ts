/** The DNS plane's UDP socket over `node:dgram`: one datagram per callback, answers sent together at the turn's end. */
import dgram from 'node:dgram';
import { EndOfTurn } from '../../common/turn-writes.js';
import { bound } from '../../plane.js';
import type { Datagrams } from './datagrams.js';

/**
 * A flood arriving faster than one event loop turn drains it waits in the kernel; the default
 * buffer (about 200 KiB) overflows within milliseconds at benchmark rates. Linux caps this at
 * net.core.rmem_max without an error.
 */
export const RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;

/** Binds `address` (an IP literal of `family`); rejects as `socket.bind` reports. */
export async function bindNodeDatagrams(address: string, family: 4 | 6, port: number, logError: (error: unknown) => void): Promise<NodeDatagrams> {
  const socket = dgram.createSocket({ type: family === 6 ? 'udp6' : 'udp4', recvBufferSize: RECEIVE_BUFFER_BYTES, lookup: literal(family) });
  try {
    await bound(socket, (done) => socket.bind(port, address, done));
  } catch (error) {
    try {
      socket.close();
    } catch {
      // Never bound: nothing to close.
    }
    throw error;
  }
  // Without a listener a send failure would be thrown from the socket and stop the process.
  socket.on('error', logError);
  return new NodeDatagrams(socket);
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

export class NodeDatagrams implements Datagrams<dgram.RemoteInfo> {
  readonly kind = 'node:dgram';
  readonly port: number;
  readonly closed: Promise<void>;
  private resolveClosed!: () => void;
  /** No answer is sent any more. */
  private stopped = false;
  /** Answers made this turn, sent together at its end (see `reply`). */
  private readonly turn = new EndOfTurn();

  constructor(private readonly socket: dgram.Socket) {
    this.port = socket.address().port;
    this.closed = new Promise<void>((resolve) => (this.resolveClosed = resolve));
  }

  start(receive: (message: Buffer, source: dgram.RemoteInfo, now: number) => void): void {
    this.socket.on('message', (message, remote) => receive(message, remote, performance.now()));
  }

  /**
   * Answers leave at the end of the event loop's turn, all of the turn's together: sent one by one
   * as each is made, each woke the client's receiving side on its own, a wake-up paid inside the
   * server's send on loopback. A bare Node responder answered 24% more queries a second this way
   * (BENCHMARKS.md); a quiet server's answer leaves as soon as the turn's I/O has been read.
   */
  reply(remote: dgram.RemoteInfo, bytes: Buffer): void {
    if (this.stopped) return;
    this.turn.defer(() => {
      if (!this.stopped) this.socket.send(bytes, remote.port, remote.address);
    });
  }

  keep(source: dgram.RemoteInfo): dgram.RemoteInfo {
    return source;
  }

  keepMessage(message: Buffer): Buffer {
    return message;
  }

  addressOf(source: dgram.RemoteInfo): string {
    return source.address;
  }

  close(flush: boolean): Promise<void> {
    if (!this.stopped) {
      if (flush) this.turn.runNow();
      this.stopped = true;
      this.socket.close(this.resolveClosed);
    }
    return this.closed;
  }
}
