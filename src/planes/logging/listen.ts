/** Puts the logging plane (the logging API of pull zones' access logs, and their origin errors API) on its port (`EDGEPLANE_LOGGING_PORT`). */
import http from 'node:http';
import type { Services } from '../../domain/services.js';
import { closeGracefully } from '../common/graceful-close.js';
import { guardedListener } from '../common/last-resort.js';
import { bound, httpUrl, listenError, type RunningPlane } from '../plane.js';
import { loggingHandler } from './handler.js';

export async function listenLogging(services: Services, host: string, port: number, logError: (error: unknown) => void): Promise<RunningPlane> {
  const handler = loggingHandler({
    store: services.store,
    apiKeys: services.apiKeys,
    pullZones: services.pullZones.zones,
    accessLog: services.edgeAccessLog,
    originErrors: services.originErrors,
  });
  const server = http.createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, guardedListener(handler, logError));
  try {
    await bound(server, (done) => server.listen(port, host, done));
  } catch (error) {
    throw listenError(error, 'EDGEPLANE_LOGGING_PORT', host, port);
  }
  const { port: boundPort } = server.address() as { port: number };
  return {
    name: 'logging',
    url: httpUrl('http', host, boundPort),
    close: () => closeGracefully(server, undefined),
    forceClose: () => server.closeAllConnections(),
  };
}
