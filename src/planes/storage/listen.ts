/** Puts the storage plane (the file API of every storage zone) on its port (`EDGEPLANE_STORAGE_PORT`). */
import type { Services } from '../../domain/services.js';
import { httpUrl, listenError, type RunningPlane } from '../plane.js';
import { createExtensionMethodServer } from './extension-methods.js';
import { storageHandler } from './handler.js';

export async function listenStorage(services: Services, host: string, port: number, logError: (error: unknown) => void): Promise<RunningPlane> {
  const front = createExtensionMethodServer(storageHandler({ files: services.files, usage: services.usage, logError }));
  let bound: { port: number };
  try {
    bound = await front.listen(port, host);
  } catch (error) {
    throw listenError(error, 'EDGEPLANE_STORAGE_PORT', host, port);
  }
  return { name: 'storage', url: httpUrl('http', host, bound.port), close: () => front.close(), forceClose: () => front.forceClose() };
}
