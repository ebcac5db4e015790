/**
 * Container output as the platform's log forwarding sends it: each line a syslog message, RFC 5424
 * (`<134>1 <time> - - - - - {"log":"…","time":"…"}`, as the platform's documentation shows it) or
 * RFC 3164 (`<134>Nov 30 00:01:24 <host> <tag>: {"log":…}`), over UDP (one datagram each) or TCP
 * (RFC 6587 octet counting). The configuration's token is a structured-data parameter in RFC
 * 5424 and a `token` field of the JSON in RFC 3164 (which has no structured data). A collector
 * that is down keeps its lines queued (up to QUEUE_MAX, then new ones are dropped and counted)
 * and is connected again, waiting longer each time; collectors are reached as origins are (the
 * origin address policy refuses the metadata services and edgeplane's own listeners).
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import { SYSLOG_HOSTNAME, tokenData } from '../../edge/logs/forwarding/syslog.js';

export interface ForwardingTarget {
  type: 'SyslogUdp' | 'SyslogTcp';
  endpoint: string;
  port: number;
  format: 'SyslogRfc3164' | 'SyslogRfc5424';
  token: string | null;
}

/** How collectors may be reached (edge/origin/addresses.ts). */
export interface CollectorAddresses {
  lookupFor(port: number): LookupFunction;
  refusal(address: string, port: number): string | undefined;
}

export interface OutputLine {
  /** When the container wrote it (epoch ms). */
  at: number;
  line: string;
  /** The container's name. */
  container: string;
  appId: string;
}

/** local0.info (RFC 5424 §6.2.1), the platform's example's priority. */
const PRIORITY = '<134>';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const QUEUE_MAX = 10_000;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5000;

/** RFC 3164's TIMESTAMP: `Mmm dd hh:mm:ss`, the day padded with a space, UTC. */
function bsdTime(at: Date): string {
  const day = String(at.getUTCDate()).padStart(2, ' ');
  const time = at.toISOString().slice(11, 19);
  return `${MONTHS[at.getUTCMonth()]} ${day} ${time}`;
}

/** One line of a container's output as the message the target's format asks for. */
export function containerSyslogMessage(target: Pick<ForwardingTarget, 'format' | 'token'>, out: OutputLine): string {
  const time = new Date(out.at).toISOString();
  if (target.format === 'SyslogRfc5424') {
    const body = JSON.stringify({ log: out.line, time, container: out.container });
    return `${PRIORITY}1 ${time} - - - - ${tokenData(target.token)} ${body}`;
  }
  const body = JSON.stringify({ log: out.line, time, container: out.container, ...(target.token ? { token: target.token } : {}) });
  // TAG: alphanumeric, at most 32 characters (RFC 3164 §4.1.3); application ids are.
  return `${PRIORITY}${bsdTime(new Date(out.at))} ${SYSLOG_HOSTNAME} ${out.appId.replace(/[^A-Za-z0-9]/g, '').slice(0, 32)}: ${body}`;
}

/** One collector and the messages queued for it. */
export class SyslogSender {
  private queue: string[] = [];
  private tcp: Socket | undefined;
  private udp: { socket: UdpSocket; address: string } | undefined;
  private state: 'idle' | 'connecting' | 'up' | 'waiting' | 'closed' = 'idle';
  private retryMs = RETRY_MIN_MS;
  private failing = false;
  private timer: NodeJS.Timeout | undefined;
  /** Messages dropped because the queue was full. */
  dropped = 0;
  sent = 0;

  constructor(
    readonly target: ForwardingTarget,
    private readonly addresses: CollectorAddresses,
    /** A failure to reach the collector, said once until it is reached again. */
    private readonly onError: (error: unknown) => void,
  ) {}

  send(message: string): void {
    if (this.state === 'closed') return;
    if (this.queue.length >= QUEUE_MAX) {
      this.dropped++;
      return;
    }
    this.queue.push(message);
    if (this.state === 'idle') this.connect();
    else if (this.state === 'up') this.flush();
  }

  close(): void {
    this.state = 'closed';
    clearTimeout(this.timer);
    this.tcp?.destroy();
    this.udp?.socket.close();
    this.tcp = undefined;
    this.udp = undefined;
    this.queue = [];
  }

  private connect(): void {
    this.state = 'connecting';
    const { endpoint, port, type } = this.target;
    const opened = () => {
      if (this.state !== 'connecting') return;
      this.state = 'up';
      this.failing = false;
      this.retryMs = RETRY_MIN_MS;
      this.flush();
    };
    if (type === 'SyslogTcp') {
      if (isIP(endpoint) !== 0 && this.refused(endpoint)) return;
      const socket = connect({ host: endpoint, port, lookup: this.addresses.lookupFor(port) });
      this.tcp = socket;
      socket.setNoDelay(true);
      socket.once('connect', opened);
      socket.on('data', () => undefined);
      socket.once('end', () => socket.destroy());
      socket.once('error', (error) => this.failed(error));
      socket.once('close', () => {
        if (this.tcp === socket) this.lost();
      });
      return;
    }
    const resolved = (address: string, family: number) => {
      if (this.state !== 'connecting') return;
      const socket = createSocket(family === 6 ? 'udp6' : 'udp4');
      socket.once('error', (error) => this.failed(error));
      this.udp = { socket, address };
      opened();
    };
    if (isIP(endpoint) !== 0) {
      if (!this.refused(endpoint)) resolved(endpoint, isIP(endpoint));
      return;
    }
    this.addresses.lookupFor(port)(endpoint, {}, (error, address, family) => {
      if (error) return this.failed(error);
      const first = Array.isArray(address) ? address[0] : { address, family: family ?? 4 };
      if (first === undefined) return this.failed(new Error(`log collector ${endpoint}: no address`));
      resolved(first.address, first.family);
    });
  }

  private refused(address: string): boolean {
    const why = this.addresses.refusal(address, this.target.port);
    if (why !== undefined) this.failed(new Error(`log collector ${address}:${this.target.port}: ${why}`));
    return why !== undefined;
  }

  private flush(): void {
    const messages = this.queue;
    this.queue = [];
    if (this.tcp) {
      let frames = '';
      for (const m of messages) frames += `${Buffer.byteLength(m)} ${m}`;
      this.tcp.write(frames);
    } else if (this.udp) {
      const { socket, address } = this.udp;
      for (const m of messages) socket.send(m, this.target.port, address);
    }
    this.sent += messages.length;
  }

  /** The connection could not open or broke: what is queued waits, and the collector is tried again later. */
  private failed(error: unknown): void {
    if (this.state === 'closed') return;
    if (!this.failing) this.onError(error);
    this.failing = true;
    this.lost();
  }

  private lost(): void {
    if (this.state === 'closed' || this.state === 'waiting') return;
    this.tcp?.destroy();
    this.tcp = undefined;
    this.udp?.socket.close();
    this.udp = undefined;
    this.state = 'waiting';
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.timer = setTimeout(() => {
      this.state = 'idle';
      if (this.queue.length > 0) this.connect();
    }, wait);
    this.timer.unref();
  }
}
