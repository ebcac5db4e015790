/**
 * Authentication of the video plane: every route declares whether it reads or writes
 * (`config.videoAccess`), and the `AccessKey` header must hold the `ApiKey` of the library the
 * path names (or its `ReadOnlyApiKey`, to read). Checked when the request arrives, before its body
 * is read: an upload with a wrong key is refused without taking its bytes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LibraryAccess } from '../../domain/videos/types.js';
import type { Services } from '../../domain/services.js';
import type { VideoAccess } from './video-api.js';

const ACCESSES: readonly VideoAccess[] = ['read', 'write', 'public'];
/** No real key is this long: bounds the hashing a stranger can cause. */
const MAX_KEY_LENGTH = 256;

export function registerVideoAuth(app: FastifyInstance, services: Services): void {
  app.decorateRequest('library', null as unknown as LibraryAccess);
  app.addHook('onRoute', (route) => {
    if (!ACCESSES.includes(route.config?.videoAccess as VideoAccess)) {
      throw new Error(`${route.method} ${route.url}: declare config.videoAccess ('read', 'write' or 'public')`);
    }
  });
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const access = request.routeOptions.config.videoAccess;
    if (access === undefined || access === 'public' || request.is404) return;
    const presented = request.headers['accesskey'];
    const key = typeof presented === 'string' && presented.length <= MAX_KEY_LENGTH ? presented : typeof presented === 'string' ? '-' : undefined;
    const libraryId = Number((request.params as { libraryId?: string }).libraryId);
    request.library = await services.videos.keys.authorize(libraryId, key, access);
  });
}
