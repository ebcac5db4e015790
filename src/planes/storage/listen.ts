/** Puts the storage plane (the file API of every storage zone) on its port (`EDGEPLANE_STORAGE_PORT`). */
import type { Services } from '../../domain/services.js';
import { answerCrossOrigin, type CrossOriginRules } from '../common/cross-origin.js';
import { cutStalledTransfers, DEFAULT_TRANSFER_TIMEOUTS, type TransferTimeouts, trackExchange, transferServerOptions } from '../common/transfer-timeouts.js';
import { httpUrl, listenError, type RunningPlane } from '../plane.js';
import { createExtensionMethodServer } from './extension-methods.js';
import { storageHandler } from './handler.js';

/** Pages elsewhere (the web console) list, upload, download and delete with a zone's password. */
const CROSS_ORIGIN: CrossOriginRules = {
  methods: 'GET, HEAD, PUT, DELETE',
  headers: 'AccessKey, Content-Type, Checksum, Override-Content-Type, AllowRootDelete',
  exposed: 'Content-Length, Content-Type, Content-Disposition, ETag, Last-Modified',
};

export async function listenStorage(
  services: Services,
  host: string,
  port: number,
  logError: (error: unknown) => void,
  given: Partial<TransferTimeouts> = {},
): Promise<RunningPlane> {
  const timeouts = { ...DEFAULT_TRANSFER_TIMEOUTS, ...given };
  const handler = storageHandler({ files: services.files, usage: services.usage, logError });
  const front = createExtensionMethodServer((req, res) => {
    trackExchange(req, res);
    if (!answerCrossOrigin(req, res, CROSS_ORIGIN)) handler(req, res);
  }, transferServerOptions(timeouts));
  // An upload may take as long as its bytes keep coming; one that stalls is cut (common/transfer-timeouts.ts).
  cutStalledTransfers(front.http, timeouts);
  let bound: { port: number };
  try {
    bound = await front.listen(port, host);
  } catch (error) {
    throw listenError(error, 'EDGEPLANE_STORAGE_PORT', host, port);
  }
  return { name: 'storage', url: httpUrl('http', host, bound.port), close: () => front.close(), forceClose: () => front.forceClose() };
}
