/**
 * How a UDP log collector's datagrams leave: packed into one buffer and sent with one `sendmmsg`
 * per turn through the native addon (native/udp-batch), or one node:dgram `send` each where the
 * addon is not built. node:dgram costs a system call, a send request and a Buffer per datagram:
 * per forwarded line, more than the rest of a cache hit's logging (BENCHMARKS.md).
 */
import { createSocket } from 'node:dgram';
import { udpBatching } from '../../../../native/udp-batch.js';

/** The largest UDP payload; a longer message is cut (a line that long is a URL or user agent out of bounds). */
export const MAX_DATAGRAM = 65_507;

export interface DatagramSender {
  /** Datagrams one `send` takes at most. */
  readonly max: number;
  /** Adds a datagram, `head` then `body` (cut at MAX_DATAGRAM bytes), to those the next `send` sends. */
  push(head: string, body: string): void;
  /** Sends the datagrams pushed since the last call; answers how many left (the rest were not taken: the socket's send buffer is full). */
  send(): number;
  close(): void;
}

/** The bytes packed per call: room for a turn's lines (a few hundred bytes each) and a datagram of the largest size. */
const PACK_BYTES = 1 << 20;

/** Datagrams per `sendmmsg` when the addon is there. */
const BATCH = 128;

/**
 * A sender to `address` (an IP address, resolved before): batched through the addon when it is
 * built and `batching` is on, node:dgram otherwise. node:dgram's socket opens asynchronously:
 * `ready` is called once it can send (at once for the addon's).
 */
export function openDatagramSender(address: string, family: 4 | 6, port: number, batching: boolean, ready: () => void): DatagramSender {
  const addon = batching ? udpBatching() : undefined;
  if (addon !== undefined && !(addon instanceof Error) && typeof addon.openSender === 'function') {
    const sender = new BatchedSender(addon, addon.openSender(address, port, family));
    queueMicrotask(ready);
    return sender;
  }
  return new NodeDgramSender(address, family, port, ready);
}

type Addon = Exclude<ReturnType<typeof udpBatching>, Error>;

class BatchedSender implements DatagramSender {
  readonly max: number;
  private readonly data = Buffer.allocUnsafe(PACK_BYTES);
  private readonly lengths: Int32Array;
  private count = 0;
  private offset = 0;

  constructor(
    private readonly addon: Addon,
    private readonly handle: object,
  ) {
    this.max = Math.min(BATCH, addon.SEND_MAX ?? BATCH);
    this.lengths = new Int32Array(this.max);
  }

  push(head: string, body: string): void {
    // A datagram written here is at most MAX_DATAGRAM bytes, and the buffer holds at least two.
    if (this.count === this.max || this.offset + MAX_DATAGRAM > PACK_BYTES) throw new Error('DatagramSender: push past `max` before send');
    const start = this.offset;
    const headBytes = this.data.write(head, start, MAX_DATAGRAM);
    const bodyBytes = this.data.write(body, start + headBytes, MAX_DATAGRAM - headBytes);
    this.lengths[this.count++] = headBytes + bodyBytes;
    this.offset = start + headBytes + bodyBytes;
  }

  send(): number {
    const count = this.count;
    this.count = 0;
    this.offset = 0;
    return count === 0 ? 0 : this.addon.sendMany(this.handle, this.data, this.lengths, count);
  }

  close(): void {
    this.addon.closeSender(this.handle);
  }
}

class NodeDgramSender implements DatagramSender {
  readonly max = BATCH;
  private readonly socket;
  private readonly pending: Buffer[] = [];

  constructor(address: string, family: 4 | 6, port: number, ready: () => void) {
    this.socket = createSocket(family === 6 ? 'udp6' : 'udp4');
    // A closed port answers with ICMP, reported on a later send: the datagram is gone either way.
    this.socket.on('error', () => undefined);
    this.socket.connect(port, address, ready);
  }

  push(head: string, body: string): void {
    const message = Buffer.from(head + body);
    this.pending.push(message.length > MAX_DATAGRAM ? message.subarray(0, MAX_DATAGRAM) : message);
  }

  send(): number {
    for (const message of this.pending) this.socket.send(message);
    const sent = this.pending.length;
    this.pending.length = 0;
    return sent;
  }

  close(): void {
    this.socket.close();
  }
}
