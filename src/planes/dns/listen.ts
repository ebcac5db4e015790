/**
 * Puts the DNS plane (the authoritative server of every DNS zone) on its port
 * (`EDGEPLANE_DNS_PORT`): one UDP socket and one TCP listener on the same port number, as DNS
 * clients expect, answering from the given authority.
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import type { Authority } from '../../domain/dns/serving/types.js';
import { TurnWrites } from '../common/turn-writes.js';
import { bound, listenError, type RunningPlane } from '../plane.js';
import { type DnsPlaneOptions, settingsOf } from './options.js';
import { SourceRateLimit } from './rate-limit.js';
import { Responder } from './respond.js';
import { TcpConnections } from './tcp.js';
import { UdpServer } from './udp.js';
import { bindDatagrams, type Datagrams } from './datagrams/bind.js';

export type { DnsPlaneOptions } from './options.js';

export interface RunningDnsPlane extends Omit<RunningPlane, 'name'> {
  readonly name: 'dns';
  /** The port both transports listen on. */
  readonly port: number;
  /** Which UDP socket answers (datagrams/): `batched` unless the addon is missing or turned off. */
  readonly udpSocket: Datagrams['kind'];
}

const VARIABLE = 'EDGEPLANE_DNS_PORT';
/** Port 0: the TCP side of the port UDP got may be taken; a few new ports are tried before giving up. */
const FREE_PORT_ATTEMPTS = 5;

export async function listenDns(authority: Authority, host: string, port: number, options: DnsPlaneOptions = {}): Promise<RunningDnsPlane> {
  const settings = settingsOf(options);
  const { udp, tcp, boundPort } = await bindBoth(host, port, { batching: settings.udpBatching, logError: settings.logError });
  const responder = new Responder(authority, settings);
  const limiter =
    settings.rateLimitPerSecond > 0
      ? new SourceRateLimit(settings.rateLimitPerSecond, settings.rateLimitBurst, settings.rateLimitSlip, settings.rateLimitClients)
      : undefined;
  const udpServer = new UdpServer(udp, responder, limiter);
  const connections = new TcpConnections(responder, settings);
  tcp.maxConnections = settings.maxTcpConnections;
  // A connection's answers of one turn leave in one write, as the HTTP planes' (common/turn-writes.ts).
  const turnWrites = new TurnWrites();
  turnWrites.hold(tcp);
  tcp.on('connection', (socket) => connections.accept(socket));
  return {
    name: 'dns',
    url: `dns://${host.includes(':') ? `[${host}]` : host}:${boundPort}`,
    port: boundPort,
    udpSocket: udp.kind,
    close: async () => {
      turnWrites.release();
      const tcpClosed = new Promise<void>((resolve) => tcp.close(() => resolve()));
      connections.finishAll();
      await Promise.all([udpServer.close(), tcpClosed]);
    },
    forceClose: () => {
      turnWrites.release();
      connections.destroyAll();
      udpServer.closeNow();
    },
  };
}

export interface UdpBinding {
  /** Many datagrams per system call where the addon is built (datagrams/batched.ts); else node:dgram. */
  batching: boolean;
  logError: (error: unknown) => void;
}

/** UDP and TCP on one port of `host` (a name is resolved first); port 0: a free one for both. */
export async function bindBoth(host: string, port: number, binding: UdpBinding): Promise<{ udp: Datagrams; tcp: net.Server; boundPort: number }> {
  // One address for both: left to each, `localhost` may give UDP 127.0.0.1 and TCP ::1.
  let address = host;
  try {
    if (net.isIP(host) === 0) address = (await lookup(host)).address;
  } catch (error) {
    throw listenError(error, VARIABLE, host, port);
  }
  for (let attempt = 1; ; attempt++) {
    let udp: Datagrams;
    try {
      udp = await bindDatagrams(address, port, binding.batching, binding.logError);
    } catch (error) {
      throw listenError(error, VARIABLE, host, port);
    }
    const boundPort = udp.port;
    const tcp = net.createServer();
    try {
      await bound(tcp, (done) => tcp.listen(boundPort, address, done));
      return { udp, tcp, boundPort };
    } catch (error) {
      await udp.close(false);
      const taken = (error as { code?: string }).code === 'EADDRINUSE';
      if (port === 0 && taken && attempt < FREE_PORT_ATTEMPTS) continue;
      throw listenError(error, VARIABLE, host, boundPort);
    }
  }
}
