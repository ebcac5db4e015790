/**
 * One log collector (a protocol, host and port) and the lines queued for it. The edge only pushes
 * into the queue; a timer sends what is queued every BATCH_MS. Over TCP and TLS a line leaves the
 * queue once the socket took it: a collector that is down or slow keeps its lines queued, up to
 * `maxQueued` (then new lines are dropped and counted), and they are sent when it is back (the
 * connection is tried again, backing off to `retry.maxMs`). Over UDP lines are sent as datagrams
 * and not known to arrive (RFC 5426): they wait only while the name is resolved.
 *
 * What a line becomes on the wire is its sender's (`Framing`): the edge's access-log lines take
 * their zone's token and format (forwarder.ts), a container's output comes already written as its
 * message (domain/containers/runtime/output-forwarding.ts).
 */
import { connect as tcpConnect, isIP, type LookupFunction, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { type DatagramSender, openDatagramSender } from './datagrams.js';
import { octetCounted } from './syslog.js';

export type Transport = 'udp' | 'tcp' | 'tls';

export interface CollectorTarget {
  transport: Transport;
  host: string;
  port: number;
}

export interface CollectorOptions {
  /** Lines queued at most; more are dropped (counted in `dropped`). */
  maxQueued: number;
  /** How often queued lines are sent. */
  batchMs: number;
  /** First and longest wait before a connection is tried again. */
  retry: { minMs: number; maxMs: number };
  /** The CAs a TLS collector's certificate is verified against. */
  ca: readonly string[];
  /** Resolves the collector's name, refusing addresses edgeplane may not reach (origin-addresses.ts). */
  lookupFor(port: number): LookupFunction;
  /** Why an address may not be reached (undefined when it may). */
  refusal(address: string, port: number): string | undefined;
  /** UDP datagrams sent a turn's worth per system call through native/udp-batch (the default) or one each through node:dgram. */
  udpBatching?: boolean;
}

/** Lines written to a stream per write; the rest waits for the socket to drain. */
const LINES_PER_WRITE = 500;
/** A connection that has not opened by then is given up and tried again. */
const CONNECT_TIMEOUT_MS = 5000;
/** A wait before sending again when the socket's send buffer was full. */
const FULL_BUFFER_WAIT_MS = 5;

type State = 'idle' | 'connecting' | 'up' | 'waiting' | 'closed';

const NO_SOURCE: unique symbol = Symbol('no source');

/** How a queued line, and what it came from (`S`: its zone, for the edge), is written as a syslog message. */
export interface Framing<S> {
  /** What comes before lines of `source` sent at `time` (ISO 8601): made once per run of lines of one source. */
  head(source: S, time: string): string;
  /** The line as its message's rest. */
  body(source: S, line: string): string;
}

export class Collector<S> {
  /** The queue: each line with what it came from (its framing's source), from `head` on. */
  private sources: S[] = [];
  private lines: string[] = [];
  private head = 0;
  private state: State = 'idle';
  private stream: Socket | undefined;
  private udp: DatagramSender | undefined;
  private timer: NodeJS.Timeout | undefined;
  private retryMs: number;
  private failing = false;
  private blocked = false;
  /** Lines dropped because the queue was full. */
  dropped = 0;
  /** Lines handed to the socket. */
  sent = 0;
  /** When a line was last queued (the forwarder closes collectors idle for long). */
  lastUsed = Date.now();

  constructor(
    readonly target: CollectorTarget,
    private readonly framing: Framing<S>,
    private readonly options: CollectorOptions,
    /** A failure to reach the collector, said once until it is reached again. */
    private readonly onError: (error: unknown) => void,
  ) {
    this.retryMs = options.retry.minMs;
  }

  /** Whether its lines can leave now or soon: connected or connecting, not failing. */
  get reachable(): boolean {
    return !this.failing && this.state !== 'closed';
  }

  get queued(): number {
    return this.lines.length - this.head;
  }

  add(source: S, line: string): void {
    if (this.lines.length - this.head >= this.options.maxQueued) {
      this.dropped++;
      return;
    }
    this.sources.push(source);
    this.lines.push(line);
    this.lastUsed = Date.now();
    if (this.timer === undefined && this.state !== 'closed' && this.state !== 'waiting') this.schedule(this.options.batchMs);
  }

  /** The queued lines of the sources `gone` picks go (a deleted zone's). */
  forget(gone: (source: S) => boolean): void {
    const sources: S[] = [];
    const lines: string[] = [];
    for (let i = this.head; i < this.lines.length; i++) {
      if (gone(this.sources[i]!)) continue;
      sources.push(this.sources[i]!);
      lines.push(this.lines[i]!);
    }
    this.sources = sources;
    this.lines = lines;
    this.head = 0;
  }

  /** Sends what is queued now (tests), connecting first if need be. */
  flushSoon(): void {
    // Waiting: the retry's timer sends them.
    if (this.state === 'closed' || this.state === 'waiting') return;
    clearTimeout(this.timer);
    this.schedule(0);
  }

  close(): void {
    this.state = 'closed';
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stream?.destroy();
    this.udp?.close();
    this.stream = undefined;
    this.udp = undefined;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, ms);
    this.timer.unref();
  }

  private pump(): void {
    if (this.state === 'idle') {
      this.connect();
      return;
    }
    if (this.state !== 'up' || this.blocked) return;
    if (this.udp) this.sendDatagrams(this.udp);
    else if (this.stream) this.writeStream(this.stream);
  }

  private connect(): void {
    this.state = 'connecting';
    const { host, port, transport } = this.target;
    if (transport === 'udp') {
      this.connectUdp();
      return;
    }
    const literal = isIP(host) !== 0;
    if (literal && this.refused(host, port)) return;
    const lookup = this.options.lookupFor(port);
    const socket =
      transport === 'tls'
        ? tlsConnect({ host, port, lookup, ca: [...this.options.ca], ...(literal ? {} : { servername: host }) })
        : tcpConnect({ host, port, lookup });
    this.stream = socket;
    socket.setNoDelay(true);
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error(`log collector ${host}:${port}: no connection within ${CONNECT_TIMEOUT_MS} ms`)));
    socket.once(transport === 'tls' ? 'secureConnect' : 'connect', () => {
      socket.setTimeout(0);
      this.opened();
    });
    socket.on('drain', () => {
      this.blocked = false;
      this.pump();
    });
    // The collector sends nothing; its end is the connection's.
    socket.on('data', () => undefined);
    socket.once('end', () => socket.destroy());
    socket.once('error', (error) => this.failed(error));
    socket.once('close', () => {
      if (this.stream === socket) this.lost();
    });
  }

  private connectUdp(): void {
    const { host, port } = this.target;
    const resolved = (address: string, family: number) => {
      if (this.state !== 'connecting') return;
      try {
        this.udp = openDatagramSender(address, family === 6 ? 6 : 4, port, this.options.udpBatching ?? true, () => this.opened());
      } catch (error) {
        this.failed(error);
      }
    };
    if (isIP(host) !== 0) {
      if (!this.refused(host, port)) resolved(host, isIP(host));
      return;
    }
    this.options.lookupFor(port)(host, {}, (error, address, family) => {
      if (error) return this.failed(error);
      const first = Array.isArray(address) ? address[0] : { address, family: family ?? 4 };
      if (first === undefined) return this.failed(new Error(`log collector ${host}: no address`));
      resolved(first.address, first.family);
    });
  }

  /** Whether the address policy refuses a literal address (the connection then fails with its reason). */
  private refused(address: string, port: number): boolean {
    const refusal = this.options.refusal(address, port);
    if (refusal !== undefined) this.failed(new Error(`log collector ${address}:${port}: ${refusal}`));
    return refusal !== undefined;
  }

  private opened(): void {
    if (this.state !== 'connecting') return;
    this.state = 'up';
    this.failing = false;
    this.retryMs = this.options.retry.minMs;
    this.pump();
  }

  /** The connection could not open or broke: its lines stay queued; try again later. */
  private failed(error: unknown): void {
    if (this.state === 'closed') return;
    if (!this.failing) this.onError(error);
    this.failing = true;
    this.lost();
  }

  private lost(): void {
    if (this.state === 'closed' || this.state === 'waiting') return;
    this.stream?.destroy();
    this.stream = undefined;
    this.udp?.close();
    this.udp = undefined;
    this.blocked = false;
    this.state = 'waiting';
    clearTimeout(this.timer);
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.options.retry.maxMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.state = 'idle';
      if (this.queued > 0) this.connect();
    }, wait);
    this.timer.unref();
  }

  private writeStream(socket: Socket): void {
    const heads = this.heads();
    while (this.queued > 0) {
      const end = Math.min(this.head + LINES_PER_WRITE, this.lines.length);
      let frames = '';
      for (let i = this.head; i < end; i++) frames += octetCounted(heads(i) + this.body(i));
      this.take(end);
      if (!socket.write(frames)) {
        this.blocked = true;
        return;
      }
    }
  }

  /** A turn's datagrams, sent with one call. */
  private sendDatagrams(sender: DatagramSender): void {
    const heads = this.heads();
    const end = Math.min(this.head + sender.max, this.lines.length);
    for (let i = this.head; i < end; i++) sender.push(heads(i), this.body(i));
    const sent = sender.send();
    const full = this.head + sent < end;
    this.take(this.head + sent);
    if (this.queued === 0) return;
    // The rest after a turn of the event loop (a burst larger than a collector's receive buffer
    // would be lost there), or a little later when the socket's send buffer was full.
    if (full) {
      clearTimeout(this.timer);
      this.schedule(FULL_BUFFER_WAIT_MS);
    } else setImmediate(() => this.pump());
  }

  /** The message head of line `i` (at the time of this send), made once per run of lines of one source. */
  private heads(): (i: number) => string {
    const time = new Date().toISOString();
    // A source no line has (a sender's source may be null or undefined).
    let source: S | typeof NO_SOURCE = NO_SOURCE;
    let head = '';
    return (i) => {
      if (this.sources[i] !== source) {
        source = this.sources[i]!;
        head = this.framing.head(source, time);
      }
      return head;
    };
  }

  /** Line `i` as its message's rest. */
  private body(i: number): string {
    return this.framing.body(this.sources[i]!, this.lines[i]!);
  }

  /** The lines before `end` were handed to the socket. */
  private take(end: number): void {
    this.sent += end - this.head;
    this.head = end;
    if (this.head === this.lines.length) {
      this.sources = [];
      this.lines = [];
      this.head = 0;
    } else if (this.head > 4096 && this.head * 2 > this.lines.length) {
      this.sources = this.sources.slice(this.head);
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
  }
}
