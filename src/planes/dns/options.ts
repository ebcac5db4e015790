/** What the DNS plane can be tuned with, and the defaults it runs with when told nothing. */
import type { Packet } from 'dns-packet';
import type { Answered } from '../../domain/dns/serving/types.js';

export interface DnsPlaneOptions {
  /**
   * UDP queries per second one client may send (one IPv4 address, one IPv6 /64) before its
   * queries are dropped; 0 turns the limit off. TCP is not limited this way: its sources cannot be
   * spoofed, and connections are capped instead.
   */
  rateLimitPerSecond?: number;
  /** Queries a client may send at once above its rate (the bucket's size). Default: the rate itself (one second's worth). */
  rateLimitBurst?: number;
  /** Of the queries over the limit, every Nth is answered with an empty truncated answer (TC=1) instead of being dropped; 0 drops all. */
  rateLimitSlip?: number;
  /** How many clients' buckets are remembered; the least recently seen are forgotten first. */
  rateLimitClients?: number;
  /** Largest UDP answer sent, whatever size the client advertises (512..4096). */
  maxUdpSize?: number;
  /**
   * Many UDP queries per system call (datagrams/batched.ts) where the native addon is built; else,
   * and when false, node:dgram. Default true.
   */
  udpBatching?: boolean;
  /**
   * A TCP connection with no whole query for this long, and no answer being worked out, is closed.
   * Bytes of a message not yet whole do not count (see tcpMessageTimeoutMs).
   */
  tcpIdleTimeoutMs?: number;
  /** A TCP message must arrive whole this long after its first byte, or the connection is closed. */
  tcpMessageTimeoutMs?: number;
  /** Open TCP connections at most; more are refused at accept. */
  maxTcpConnections?: number;
  /**
   * Open TCP connections of one client (an IPv4 address, an IPv6 /64) at most; more are closed at
   * accept, so one client cannot hold all of `maxTcpConnections`. 0 turns the cap off.
   */
  maxTcpConnectionsPerClient?: number;
  /** Queries of one TCP connection being answered at once; reading pauses above it. */
  maxTcpQueriesInFlight?: number;
  /**
   * UDP answers kept for repeated queries (see answer-cache.ts), when the authority allows it;
   * 0 turns the cache off.
   */
  answerCacheSize?: number;
  /**
   * What is counted of an answer (statistics, query logs): asked once per distinct answer, the
   * tally it gives is counted after every sending of that answer, cached ones included (a cache
   * hit then costs two additions, not the reading of the answer again). Errors are logged, never
   * sent.
   */
  tallyOf?: (answered: Answered, query: Packet) => AnswerTally | undefined;
  /**
   * Zone transfers to secondaries (transfer/serve-transfer.ts): AXFR and IXFR over TCP go there; its
   * secondaries pass the UDP rate limit and the per-client connection cap. Without it transfers are refused.
   */
  transfers?: TransferHandler;
  /** An answer that failed (the authority threw): the client got SERVFAIL. */
  logError?: (error: unknown) => void;
}

/** Zone transfers as the plane hands them over (transfer/serve-transfer.ts). */
export interface TransferHandler {
  isSecondary(address: string): boolean;
  /**
   * An AXFR or IXFR over TCP: every message of the answer goes to `send`, framed, waiting for
   * `drained` (see Drained) when it says to; a promise while the answer is still being written.
   */
  handle(message: Buffer, query: Packet, address: string, send: (bytes: Buffer) => void, drained?: Drained): 'answered' | 'malformed' | Promise<void>;
}

/**
 * A TCP connection's room for more answer bytes: undefined while there is room, else a promise
 * that resolves true once the client has read enough (false when the connection closed, or was cut
 * for reading nothing for its idle timeout).
 */
export type Drained = () => Promise<boolean> | undefined;

/**
 * Counts one answer each time it is sent, given who asked it this time. The rest of what the query
 * said (its EDNS size, its DO bit) is the same at every sending of one answer, the cache's key
 * included: a tally that needs it takes it when `tallyOf` makes it.
 */
export interface AnswerTally {
  count(address: string, transport: 'udp' | 'tcp'): void;
}

export type DnsPlaneSettings = Required<Omit<DnsPlaneOptions, 'tallyOf' | 'rateLimitBurst' | 'transfers'>> &
  Pick<DnsPlaneOptions, 'tallyOf' | 'transfers'> & { rateLimitBurst: number };

/**
 * 1232 bytes is the EDNS size of DNS Flag Day 2020 (NSD, BIND, PowerDNS and Knot all default to
 * it): larger UDP answers risk IP fragmentation, which is lost on many paths and lets an off-path
 * attacker forge the second fragment. Larger answers go over TCP instead.
 */
export const DEFAULT_MAX_UDP_SIZE = 1232;

/**
 * A query fits one segment: its rest arrives with its first byte, or after a retransmission or
 * two (Linux's first retransmission comes 200 ms to 1 s after). Knot DNS gives a message 500 ms
 * (`tcp-io-timeout`); this is looser, for slow links.
 */
export const DEFAULT_TCP_MESSAGE_TIMEOUT_MS = 2000;

/**
 * RFC 7766 §6.2.2 asks clients for one connection per server, and servers that limit an address to
 * be much looser than that (an address may be many resolvers, or a NAT): 20 is 2% of the plane's
 * 1,000, so it takes fifty addresses, not one, to fill them.
 */
export const DEFAULT_TCP_CONNECTIONS_PER_CLIENT = 20;

export function settingsOf(options: DnsPlaneOptions): DnsPlaneSettings {
  const rate = options.rateLimitPerSecond ?? 1000;
  return {
    rateLimitPerSecond: rate,
    rateLimitBurst: options.rateLimitBurst ?? rate,
    rateLimitSlip: options.rateLimitSlip ?? 2,
    rateLimitClients: options.rateLimitClients ?? 100_000,
    maxUdpSize: Math.min(4096, Math.max(512, options.maxUdpSize ?? DEFAULT_MAX_UDP_SIZE)),
    udpBatching: options.udpBatching ?? true,
    tcpIdleTimeoutMs: options.tcpIdleTimeoutMs ?? 10_000,
    tcpMessageTimeoutMs: options.tcpMessageTimeoutMs ?? DEFAULT_TCP_MESSAGE_TIMEOUT_MS,
    maxTcpConnections: options.maxTcpConnections ?? 1000,
    maxTcpConnectionsPerClient: options.maxTcpConnectionsPerClient ?? DEFAULT_TCP_CONNECTIONS_PER_CLIENT,
    maxTcpQueriesInFlight: options.maxTcpQueriesInFlight ?? 64,
    answerCacheSize: options.answerCacheSize ?? 20_000,
    tallyOf: options.tallyOf,
    transfers: options.transfers,
    logError: options.logError ?? (() => {}),
  };
}
