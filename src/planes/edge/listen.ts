/**
 * Puts the edge on its ports: plain HTTP (`EDGEPLANE_EDGE_PORT`) and HTTPS (`EDGEPLANE_EDGE_TLS_PORT`,
 * its certificate options from tls.ts). Both serve every pull zone from one shared core (core.ts).
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { closeGracefully } from '../common/graceful-close.js';
import { TurnWrites } from '../common/turn-writes.js';
import { bound, httpUrl, listenError, type PlaneName, type RunningPlane } from '../plane.js';
import type { EdgeCore } from './core.js';
import { edgeHandler } from './handler.js';
import type { TlsCertificates } from '../../domain/certificates/edge-certificates.js';
import { edgeTlsOptions, keepDefaultCertificateFresh } from './tls.js';

export async function listenEdge(core: EdgeCore, host: string, port: number): Promise<RunningPlane> {
  const server = http.createServer({ insecureHTTPParser: false, keepAliveTimeout: 65_000 }, edgeHandler(core.pipeline, 'http', core.logError));
  // Answers leave at the end of the turn, as the API's do. Not over TLS: there the bytes reach the
  // socket through the TLS layer's native stream, not through the socket's own write methods.
  const turnWrites = new TurnWrites();
  turnWrites.hold(server);
  const running = await start(server, 'edge', 'http', 'EDGEPLANE_EDGE_PORT', host, port, turnWrites);
  // No zone may pull from the edge itself (a loop), on whatever port the system picked.
  core.originAddresses.listening(Number(new URL(running.url).port));
  // Whether EDGEPLANE_ORIGIN_SHIELD_URL names this listener: then this instance is the shield.
  await core.shield.listening(Number(new URL(running.url).port));
  return { ...running, close: () => running.close().then(() => core.permaCache.close()) };
}

/** The HTTPS listener: certificates chosen by SNI from the hostnames' own or the local authority's (tls.ts). */
export async function listenEdgeTls(core: EdgeCore, certificates: TlsCertificates, host: string, port: number): Promise<RunningPlane> {
  const tls = await edgeTlsOptions(certificates, { onError: (error) => core.logError(error) });
  const server = https.createServer({ ...tls, insecureHTTPParser: false, keepAliveTimeout: 65_000 }, edgeHandler(core.pipeline, 'https', core.logError));
  const running = await start(server, 'edge-tls', 'https', 'EDGEPLANE_EDGE_TLS_PORT', host, port);
  core.originAddresses.listening(Number(new URL(running.url).port));
  const stopRefreshing = keepDefaultCertificateFresh(server, certificates);
  // Redirects to HTTPS name the port clients really reach, when the system picked it.
  if (!core.httpsPortFixed) core.httpsPort = Number(new URL(running.url).port);
  return {
    ...running,
    close: () => {
      stopRefreshing();
      return running.close().then(() => core.permaCache.close());
    },
  };
}

async function start(
  server: http.Server,
  name: PlaneName,
  scheme: 'http' | 'https',
  variable: string,
  host: string,
  port: number,
  turnWrites?: TurnWrites,
): Promise<RunningPlane> {
  await bound(server, (done) => server.listen(port, host, done)).catch((error: unknown) => {
    throw listenError(error, variable, host, port);
  });
  return {
    name,
    url: httpUrl(scheme, host, (server.address() as AddressInfo).port),
    close: () => closeGracefully(server, turnWrites),
    forceClose: () => server.closeAllConnections(),
  };
}
