/** DNS clients for the transport tests: queries built with dns-packet, sent over real sockets. */
import dgram from 'node:dgram';
import net from 'node:net';
import { type DecodedPacket, decode, encode, type Packet } from 'dns-packet';

export interface QueryOptions {
  id?: number;
  type?: 'A' | 'AAAA' | 'TXT' | 'MX';
  /** EDNS(0) with this UDP payload size; no OPT record when unset. */
  udpPayloadSize?: number;
  dnssecOk?: boolean;
  /** EDNS Client Subnet (RFC 7871) in the OPT record (with udpPayloadSize). */
  clientSubnet?: { ip: string; sourcePrefixLength: number };
}

export function query(name: string, options: QueryOptions = {}): Buffer {
  const packet: Packet = {
    id: options.id ?? 4242,
    type: 'query',
    flags: 1 << 8,
    questions: [{ name, type: options.type ?? 'A', class: 'IN' }],
  };
  if (options.udpPayloadSize !== undefined) {
    const subnet = options.clientSubnet;
    const ecs = subnet
      ? [{ code: 8, family: subnet.ip.includes(':') ? 2 : 1, sourcePrefixLength: subnet.sourcePrefixLength, scopePrefixLength: 0, ip: subnet.ip }]
      : [];
    packet.additionals = [{ name: '.', type: 'OPT', udpPayloadSize: options.udpPayloadSize, flags: options.dnssecOk ? 0x8000 : 0, options: ecs } as never];
  }
  return encode(packet);
}

export function frame(message: Buffer): Buffer {
  const framed = Buffer.alloc(message.length + 2);
  framed.writeUInt16BE(message.length, 0);
  message.copy(framed, 2);
  return framed;
}

/** One UDP socket that sends datagrams and collects whatever comes back. */
export class UdpClient {
  readonly received: Buffer[] = [];
  private waiters: (() => void)[] = [];
  private readonly socket: dgram.Socket;
  private readonly host: string;

  /** `from`: the local address to send from (any 127.0.0.0/8 address is a distinct source on loopback). */
  constructor(
    private readonly port: number,
    options: { host?: string; from?: string } = {},
  ) {
    this.host = options.host ?? '127.0.0.1';
    this.socket = dgram.createSocket(this.host.includes(':') ? 'udp6' : 'udp4');
    if (options.from !== undefined) this.socket.bind(0, options.from);
    this.socket.on('message', (message) => {
      this.received.push(message);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  send(bytes: Buffer): void {
    this.socket.send(bytes, this.port, this.host);
  }

  /** The next datagram not yet taken, or null after `timeoutMs`. */
  async next(timeoutMs = 1000): Promise<Buffer | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return this.received.shift()!;
  }

  close(): void {
    this.socket.close();
  }
}

/** Sends one datagram and decodes the answer (null: none within `timeoutMs`). */
export async function udpAsk(port: number, bytes: Buffer, timeoutMs = 1000, host = '127.0.0.1'): Promise<DecodedPacket | null> {
  const client = new UdpClient(port, { host });
  try {
    client.send(bytes);
    const answer = await client.next(timeoutMs);
    return answer === null ? null : decode(answer);
  } finally {
    client.close();
  }
}

/** A TCP connection that splits what it receives into DNS messages. */
export class TcpClient {
  private buffered = Buffer.alloc(0);
  private readonly messages: Buffer[] = [];
  private waiters: (() => void)[] = [];
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      while (this.buffered.length >= 2 && this.buffered.length >= 2 + this.buffered.readUInt16BE(0)) {
        const length = this.buffered.readUInt16BE(0);
        this.messages.push(this.buffered.subarray(2, 2 + length));
        this.buffered = this.buffered.subarray(2 + length);
      }
      this.wake();
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', () => (this.wake(), resolve())));
  }

  /** `from`: the local address to connect from (any 127.0.0.0/8 address is a distinct client on loopback). */
  static connect(port: number, host = '127.0.0.1', from?: string): Promise<TcpClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host, ...(from === undefined ? {} : { localAddress: from }) }, () => resolve(new TcpClient(socket)));
      socket.once('error', reject);
    });
  }

  write(bytes: Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** The next message, decoded; throws when none comes within `timeoutMs` or the connection closes first. */
  async next(timeoutMs = 2000): Promise<DecodedPacket> {
    const deadline = Date.now() + timeoutMs;
    while (this.messages.length === 0) {
      if (this.socket.destroyed || this.socket.readableEnded) throw new Error('the connection closed before an answer came');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no answer within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
    return decode(this.messages.shift()!);
  }

  /** Resolves true if the server closes the connection within `timeoutMs`. */
  async closesWithin(timeoutMs: number): Promise<boolean> {
    return Promise.race([this.closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs))]);
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
