/**
 * Puts the edge on its ports: plain HTTP (`EDGEPLANE_EDGE_PORT`) and HTTPS (`EDGEPLANE_EDGE_TLS_PORT`,
 * its certificate options from tls.ts), the latter speaking HTTP/2 or HTTP/1.1 as each client's
 * ALPN chooses. Both serve every pull zone from one shared core (core.ts), and carry WebSockets over
 * HTTP/1.1 (websockets.ts).
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { TlsCertificates } from '../../domain/certificates/edge-certificates.js';
import { closeGracefully } from '../common/graceful-close.js';
import { TurnWrites } from '../common/turn-writes.js';
import { bound, httpUrl, listenError, type PlaneName, type RunningPlane } from '../plane.js';
import type { EdgeCore } from './core.js';
import { edgeHandler, edgeStreamHandler } from './handler.js';
import { TlsConnections } from './tls-connections.js';
import { edgeTlsOptions, keepDefaultCertificateFresh } from './tls.js';
import type { UpgradeListener } from './websockets.js';

/** How long an idle connection (HTTP/1.1 keep-alive, or an HTTP/2 session with no stream) is kept. */
const KEEP_ALIVE_MS = 65_000;
/** nginx's bound on a session's concurrent streams; node:http2's own is unbounded. */
const MAX_CONCURRENT_STREAMS = 128;

/** The node:http server of one listener's HTTP/1.1 connections, with its WebSockets. */
function http1Server(core: EdgeCore, scheme: 'http' | 'https'): { server: http.Server; upgrades: UpgradeListener } {
  const handler = edgeHandler(core.pipeline, scheme, core.logError);
  const server = http.createServer({ insecureHTTPParser: false, keepAliveTimeout: KEEP_ALIVE_MS }, handler);
  const upgrades = core.webSockets.listener(scheme, handler);
  server.on('upgrade', upgrades.onUpgrade);
  return { server, upgrades };
}

export async function listenEdge(core: EdgeCore, host: string, port: number): Promise<RunningPlane> {
  const { server, upgrades } = http1Server(core, 'http');
  // Answers leave at the end of the turn, as the API's do. Not over TLS: there the bytes reach the
  // socket through the TLS layer's native stream, not through the socket's own write methods.
  const turnWrites = new TurnWrites();
  turnWrites.hold(server);
  const running = await start(server, 'edge', 'http', 'EDGEPLANE_EDGE_PORT', host, port);
  // No zone may pull from the edge itself (a loop), on whatever port the system picked.
  core.originAddresses.listening(Number(new URL(running.url).port));
  // Whether EDGEPLANE_ORIGIN_SHIELD_URL names this listener: then this instance is the shield.
  await core.shield.listening(Number(new URL(running.url).port));
  return {
    ...running,
    // The WebSockets end with the listener: node:http's close would wait for them, and its sweep never sees them.
    // The perma-cache's writes still running are let finish.
    close: () => {
      upgrades.end();
      return closeGracefully(server, turnWrites).then(() => core.permaCache.close());
    },
    forceClose: () => {
      upgrades.destroy();
      server.closeAllConnections();
    },
  };
}

/**
 * The HTTPS listener: certificates chosen by SNI from the hostnames' own or the local authority's
 * (tls.ts). A client offering `h2` gets HTTP/2, its streams answered on node:http2's stream API
 * (http2-messages.ts); one offering only `http/1.1`, or no protocol, is handed to a node:http server
 * as over plain HTTP (its keep-alive, timeouts, graceful close and WebSocket upgrades the same).
 */
export async function listenEdgeTls(core: EdgeCore, certificates: TlsCertificates, host: string, port: number): Promise<RunningPlane> {
  const tls = await edgeTlsOptions(certificates, { onError: (error) => core.logError(error) });
  const { server: http1, upgrades } = http1Server(core, 'https');
  const server = http2.createSecureServer({
    ...tls,
    ALPNCallback: ({ protocols }) => (protocols.includes('h2') ? 'h2' : protocols.includes('http/1.1') ? 'http/1.1' : undefined),
    noDelay: true,
    settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS },
  });
  server.on('stream', edgeStreamHandler(core.pipeline, core.logError));
  // node:http2 leaves the connections it does not speak HTTP/2 on to this listener.
  server.on('unknownProtocol', (socket: TLSSocket) => http1.emit('connection', socket));
  // The http server tracks its connections (headersTimeout, closeIdleConnections) once it hears it listens; the TLS server does.
  server.on('listening', () => http1.emit('listening'));
  const connections = new TlsConnections(server, KEEP_ALIVE_MS);
  const running = await start(server, 'edge-tls', 'https', 'EDGEPLANE_EDGE_TLS_PORT', host, port);
  core.originAddresses.listening(Number(new URL(running.url).port));
  const stopRefreshing = keepDefaultCertificateFresh(server, certificates);
  // Redirects to HTTPS name the port clients really reach, when the system picked it.
  if (!core.httpsPortFixed) core.httpsPort = Number(new URL(running.url).port);
  return {
    ...running,
    close: () => {
      stopRefreshing();
      upgrades.end();
      connections.closeSessions();
      return closeGracefully(server, undefined, http1).then(() => core.permaCache.close());
    },
    forceClose: () => connections.destroyAll(),
  };
}

async function start(
  server: http.Server | http2.Http2SecureServer,
  name: PlaneName,
  scheme: 'http' | 'https',
  variable: string,
  host: string,
  port: number,
): Promise<Omit<RunningPlane, 'close' | 'forceClose'>> {
  await bound(server, (done) => server.listen(port, host, done)).catch((error: unknown) => {
    throw listenError(error, variable, host, port);
  });
  return { name, url: httpUrl(scheme, host, (server.address() as AddressInfo).port) };
}
