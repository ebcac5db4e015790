/**
 * One question to the upstream resolver (`EDGEPLANE_DNS_UPSTREAM`) at a time, for record scans.
 * Node's resolver, which the Flatten lookups use, gives TTLs for addresses only and folds every
 * failure into an error code; a scan needs every record's TTL and must tell "no such record" from
 * "could not ask", so it speaks DNS itself: a UDP query with EDNS, again over TCP when the answer
 * comes back truncated.
 */
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import { type Answer, type DecodedPacket, decode, encode, RECURSION_DESIRED, type RecordType, TRUNCATED_RESPONSE } from 'dns-packet';

export interface UpstreamServer {
  host: string;
  port: number;
}

/** The answer to one question: its response code, and the answer section. */
export interface UpstreamReply {
  rcode: 'NOERROR' | 'NXDOMAIN';
  answers: Answer[];
}

/** The resolver could not be asked, or would not answer (SERVFAIL, REFUSED…). */
export class UpstreamQueryError extends Error {}

/** Large enough for long TXT answers, small enough not to fragment (the DNS flag day 2020 value). */
const UDP_PAYLOAD_SIZE = 1232;
const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];

/** `192.0.2.53`, `192.0.2.53:5353`, `2001:db8::53`, `[2001:db8::53]:5353`; undefined when it is none of these. */
export function parseUpstream(value: string): UpstreamServer | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : net.isIPv6(value) ? [value, undefined] : value.split(':');
  if (host === undefined || net.isIP(host) === 0 || (net.isIPv6(host) && !bracketed && port !== undefined)) return undefined;
  const number = port === undefined ? 53 : Number(port);
  return /^\d{0,5}$/.test(port ?? '') && number >= 1 && number <= 65535 ? { host, port: number } : undefined;
}

export interface QueryOptions {
  timeoutMs: number;
  /** UDP attempts before giving up on a silent resolver. */
  tries: number;
}

export async function askUpstream(server: UpstreamServer, name: string, type: RecordType, options: QueryOptions): Promise<UpstreamReply> {
  let reply: DecodedPacket | undefined;
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < options.tries && !reply; attempt++) {
    try {
      reply = await overUdp(server, name, type, options.timeoutMs);
    } catch (error) {
      lastError = error as Error;
      // A refused port will refuse again; only silence is worth another try.
      if (!(error instanceof TimeoutError)) break;
    }
  }
  if (!reply) throw new UpstreamQueryError(`${describe(name, type)}: ${lastError?.message ?? 'no answer'}`);
  if ((reply.flags ?? 0) & TRUNCATED_RESPONSE) {
    try {
      reply = await overTcp(server, name, type, options.timeoutMs);
    } catch (error) {
      throw new UpstreamQueryError(`${describe(name, type)} over TCP (the UDP answer was truncated): ${(error as Error).message}`);
    }
  }
  const rcode = RCODES[(reply.flags ?? 0) & 0xf] ?? `RCODE ${(reply.flags ?? 0) & 0xf}`;
  if (rcode !== 'NOERROR' && rcode !== 'NXDOMAIN') throw new UpstreamQueryError(`${describe(name, type)}: the resolver answered ${rcode}`);
  return { rcode, answers: reply.answers ?? [] };
}

const describe = (name: string, type: string) => `${type} ${name}`;

class TimeoutError extends Error {}

function query(id: number, name: string, type: RecordType): Buffer {
  return encode({
    type: 'query',
    id,
    flags: RECURSION_DESIRED,
    questions: [{ name, type, class: 'IN' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: UDP_PAYLOAD_SIZE, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }],
  });
}

/** A reply is only taken for the question asked, with the id sent: anything else is ignored (spoofing, late answers). */
function matches(reply: DecodedPacket, id: number, name: string, type: RecordType): boolean {
  const question = reply.questions?.[0];
  return reply.type === 'response' && reply.id === id && question?.type === type && question.name.toLowerCase() === name.toLowerCase();
}

function overUdp(server: UpstreamServer, name: string, type: RecordType, timeoutMs: number): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const id = randomInt(0, 65536);
    // Connected, so a closed port is reported at once (ICMP port unreachable) rather than waited out.
    const socket = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
    let done = false;
    const finish = (error: Error | undefined, reply?: DecodedPacket) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve(reply!);
    };
    const timer = setTimeout(() => finish(new TimeoutError(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('error', (error) => finish(new Error(socketProblem(error))));
    socket.on('message', (message) => {
      let reply: DecodedPacket;
      try {
        reply = decode(message);
      } catch {
        return;
      }
      if (matches(reply, id, name, type)) finish(undefined, reply);
    });
    socket.connect(server.port, server.host, () => socket.send(query(id, name, type)));
  });
}

function overTcp(server: UpstreamServer, name: string, type: RecordType, timeoutMs: number): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const id = randomInt(0, 65536);
    const socket = net.connect(server.port, server.host);
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (error: Error | undefined, reply?: DecodedPacket) => {
      if (done) return;
      done = true;
      socket.destroy();
      if (error) reject(error);
      else resolve(reply!);
    };
    socket.setTimeout(timeoutMs, () => finish(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('error', (error) => finish(new Error(socketProblem(error))));
    socket.on('connect', () => {
      const message = query(id, name, type);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(message.length);
      socket.write(Buffer.concat([length, message]));
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      try {
        const reply = decode(received.subarray(2, 2 + received.readUInt16BE(0)));
        if (matches(reply, id, name, type)) finish(undefined, reply);
        else finish(new Error('the answer was for another question'));
      } catch {
        finish(new Error('the answer could not be read'));
      }
    });
    socket.on('end', () => finish(new Error('the connection closed before an answer')));
  });
}

function socketProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED') return 'connection refused (nothing listens at that address and port)';
  if (error.code === 'EHOSTUNREACH' || error.code === 'ENETUNREACH') return 'the resolver cannot be reached';
  return error.message;
}
