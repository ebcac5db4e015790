/** Puts the S3 plane (the S3-compatible API of storage zones with S3 support) on its port (`EDGEPLANE_S3_PORT`). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Services } from '../../domain/services.js';
import { continueOnRead } from '../common/expect-continue.js';
import { cutStalledTransfers, DEFAULT_TRANSFER_TIMEOUTS, type TransferTimeouts, trackExchange, transferServerOptions } from '../common/transfer-timeouts.js';
import { closeGracefully } from '../common/graceful-close.js';
import { TurnWrites } from '../common/turn-writes.js';
import { bound, httpUrl, listenError, type RunningPlane } from '../plane.js';
import { s3Handler } from './handler.js';

export interface S3PlaneOptions {
  storageDomain: string;
  logError: (error: unknown) => void;
  /** How long a stalled transfer is waited for (common/transfer-timeouts.ts); the defaults for what is not given. */
  timeouts?: Partial<TransferTimeouts>;
}

export async function listenS3(services: Services, host: string, port: number, options: S3PlaneOptions): Promise<RunningPlane> {
  let closing = false;
  const handler = s3Handler({
    files: services.files,
    multipart: services.multipartUploads,
    usage: services.usage,
    buckets: services.s3Buckets,
    credentials: services.s3Credentials,
    clock: () => new Date(),
    storageDomain: options.storageDomain,
    logError: options.logError,
  });
  const serve: http.RequestListener = (req, res) => {
    trackExchange(req, res);
    if (closing) res.setHeader('connection', 'close');
    handler(req, res);
  };
  const timeouts = { ...DEFAULT_TRANSFER_TIMEOUTS, ...options.timeouts };
  const server = http.createServer({ ...transferServerOptions(timeouts), insecureHTTPParser: false }, serve);
  // An upload may take as long as its bytes keep coming; one that stalls is cut (common/transfer-timeouts.ts).
  cutStalledTransfers(server, timeouts);
  // `100 Continue` only once the handler reads the body: a refusal comes first (common/expect-continue.ts).
  continueOnRead(server, serve);
  // Answers leave at the end of the event loop's turn, as the API's and the edge's do.
  const turnWrites = new TurnWrites();
  turnWrites.hold(server);
  try {
    await bound(server, (done) => server.listen(port, host, done));
  } catch (error) {
    throw listenError(error, 'EDGEPLANE_S3_PORT', host, port);
  }
  return {
    name: 's3',
    url: httpUrl('http', host, (server.address() as AddressInfo).port),
    close: () => {
      closing = true;
      return closeGracefully(server, turnWrites);
    },
    forceClose: () => server.closeAllConnections(),
  };
}
