/**
 * Puts the edge on its ports: plain HTTP (`EDGEPLANE_EDGE_PORT`) and HTTPS (`EDGEPLANE_EDGE_TLS_PORT`,
 * its certificate options from tls.ts), the latter speaking HTTP/2 and HTTP/1.1 as ALPN chooses.
 * Both serve every pull zone from one shared core (core.ts), and carry WebSockets over HTTP/1.1
 * (websockets.ts).
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { closeGracefully } from '../common/graceful-close.js';
import { TurnWrites } from '../common/turn-writes.js';
import { bound, httpUrl, listenError, type PlaneName, type RunningPlane } from '../plane.js';
import type { EdgeCore } from './core.js';
import { edgeHandler } from './handler.js';
import type { TlsCertificates } from '../../domain/certificates/edge-certificates.js';
import { edgeTlsOptions, keepDefaultCertificateFresh } from './tls.js';
import { TlsConnections } from './tls-connections.js';
import type { UpgradeListener } from './websockets.js';

/** How long an idle connection (HTTP/1.1 keep-alive, or an HTTP/2 session with no stream) is kept. */
const KEEP_ALIVE_MS = 65_000;

export async function listenEdge(core: EdgeCore, host: string, port: number): Promise<RunningPlane> {
  const handler = edgeHandler(core.pipeline, 'http', core.logError);
  const server = http.createServer({ insecureHTTPParser: false, keepAliveTimeout: KEEP_ALIVE_MS }, handler);
  // Answers leave at the end of the turn, as the API's do. Not over TLS: there the bytes reach the
  // socket through the TLS layer's native stream, not through the socket's own write methods.
  const turnWrites = new TurnWrites();
  turnWrites.hold(server);
  const upgrades = core.webSockets.listener('http', handler);
  const running = await start(server, 'edge', 'http', 'EDGEPLANE_EDGE_PORT', host, port, upgrades, turnWrites);
  // No zone may pull from the edge itself (a loop), on whatever port the system picked.
  core.originAddresses.listening(Number(new URL(running.url).port));
  return running;
}

/**
 * The HTTPS listener: certificates chosen by SNI from the hostnames' own or the local authority's
 * (tls.ts); HTTP/2 for clients that offer `h2`, HTTP/1.1 for the others, through the same handler.
 */
export async function listenEdgeTls(core: EdgeCore, certificates: TlsCertificates, host: string, port: number): Promise<RunningPlane> {
  const tls = await edgeTlsOptions(certificates, { onError: (error) => core.logError(error) });
  const handler = edgeHandler(core.pipeline, 'https', core.logError);
  const h2Handler = handler as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void;
  // nginx's bound on a session's concurrent streams; node:http2's own is unbounded.
  const server = http2.createSecureServer({ ...tls, allowHTTP1: true, noDelay: true, settings: { maxConcurrentStreams: 128 } }, h2Handler);
  // The HTTP/1.1 connections' options, which node:http2 reads from the server as node:http does.
  Object.assign(server, { insecureHTTPParser: false, keepAliveTimeout: KEEP_ALIVE_MS, requireHostHeader: true });
  const connections = new TlsConnections(server, KEEP_ALIVE_MS);
  // Its HTTP/1.1 connections' upgrades reach it as node:http's do.
  const upgrades = core.webSockets.listener('https', handler);
  const running = await start(server, 'edge-tls', 'https', 'EDGEPLANE_EDGE_TLS_PORT', host, port, upgrades, undefined, () => connections.destroyAll());
  core.originAddresses.listening(Number(new URL(running.url).port));
  const stopRefreshing = keepDefaultCertificateFresh(server, certificates);
  // Redirects to HTTPS name the port clients really reach, when the system picked it.
  if (!core.httpsPortFixed) core.httpsPort = Number(new URL(running.url).port);
  return {
    ...running,
    close: () => {
      stopRefreshing();
      connections.closeSessions();
      return running.close();
    },
  };
}

async function start(
  server: http.Server | http2.Http2SecureServer,
  name: PlaneName,
  scheme: 'http' | 'https',
  variable: string,
  host: string,
  port: number,
  upgrades: UpgradeListener,
  turnWrites?: TurnWrites,
  forceClose = () => (server as http.Server).closeAllConnections(),
): Promise<RunningPlane> {
  server.on('upgrade', upgrades.onUpgrade);
  await bound(server, (done) => server.listen(port, host, done)).catch((error: unknown) => {
    throw listenError(error, variable, host, port);
  });
  return {
    name,
    url: httpUrl(scheme, host, (server.address() as AddressInfo).port),
    // node:http2's server sweeps its HTTP/1.1 connections as node:http's does (its sessions: tls-connections.ts).
    // The WebSockets end with the listener (node:http's close would wait for them, and its sweep never sees them).
    close: () => {
      upgrades.end();
      return closeGracefully(server, turnWrites, server as http.Server);
    },
    forceClose: () => {
      upgrades.destroy();
      forceClose();
    },
  };
}
