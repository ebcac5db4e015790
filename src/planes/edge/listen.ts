/**
 * Puts the edge on its ports: plain HTTP (`EDGEPLANE_EDGE_PORT`) and HTTPS (`EDGEPLANE_EDGE_TLS_PORT`,
 * its certificate options from tls.ts). Both serve every pull zone from one shared core (core.ts).
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Services } from '../../domain/services.js';
import { closeGracefully } from '../common/graceful-close.js';
import { TurnWrites } from '../common/turn-writes.js';
import { httpUrl, listenError, type PlaneName, type RunningPlane } from '../plane.js';
import { type EdgeCoreOptions, edgeCoreOf } from './core.js';
import { edgeHandler } from './handler.js';
import { edgeTlsOptions, keepDefaultCertificateFresh } from './tls.js';

export type EdgePlaneOptions = EdgeCoreOptions;

export async function listenEdge(services: Services, host: string, port: number, options: EdgePlaneOptions): Promise<RunningPlane> {
  const core = edgeCoreOf(services, options);
  const server = http.createServer({ insecureHTTPParser: false, keepAliveTimeout: 65_000 }, edgeHandler(core.pipeline, 'http', options.logError));
  // Answers leave at the end of the turn, as the API's do. Not over TLS: there the bytes reach the
  // socket through the TLS layer's native stream, not through the socket's own write methods.
  const turnWrites = new TurnWrites();
  turnWrites.hold(server);
  const running = await start(server, 'edge', 'http', 'EDGEPLANE_EDGE_PORT', host, port, turnWrites);
  // No zone may pull from the edge itself (a loop), on whatever port the system picked.
  services.originAddresses.listening(Number(new URL(running.url).port));
  return running;
}

/** The HTTPS listener: certificates chosen by SNI from the hostnames' own or the local authority's (tls.ts). */
export async function listenEdgeTls(services: Services, host: string, port: number, options: EdgePlaneOptions): Promise<RunningPlane> {
  const core = edgeCoreOf(services, options);
  const certificates = services.certificates.edge;
  const tls = await edgeTlsOptions(certificates, { onError: (error) => options.logError(error) });
  const server = https.createServer({ ...tls, insecureHTTPParser: false, keepAliveTimeout: 65_000 }, edgeHandler(core.pipeline, 'https', options.logError));
  const running = await start(server, 'edge-tls', 'https', 'EDGEPLANE_EDGE_TLS_PORT', host, port);
  services.originAddresses.listening(Number(new URL(running.url).port));
  const stopRefreshing = keepDefaultCertificateFresh(server, certificates);
  // Redirects to HTTPS name the port clients really reach, when the system picked it.
  if (options.httpsPort === undefined) core.httpsPort = Number(new URL(running.url).port);
  return {
    ...running,
    close: () => {
      stopRefreshing();
      return running.close();
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
  const bound = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, variable, host, port)));
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
  return {
    name,
    url: httpUrl(scheme, host, bound.port),
    close: () => closeGracefully(server, turnWrites),
    forceClose: () => server.closeAllConnections(),
  };
}
