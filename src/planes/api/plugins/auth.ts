/**
 * Authentication for every API route registered in this scope: the `AccessKey` header names an
 * API key; the key's account becomes the request's principal. Read-only keys may only read, and
 * the container operations call for a personal key (an account key is refused there).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyService } from '../../../domain/api-keys/service.js';
import { errors } from '../../../domain/errors.js';
import { canWrite, type Principal } from '../../../domain/principal.js';
import { quickHook } from './quick-hook.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerAuth(app: FastifyInstance, apiKeys: ApiKeyService, options: { personalKeyOnly: boolean }): void {
  app.decorateRequest('principal', null as unknown as Principal);
  const admit = (request: FastifyRequest, principal: Principal | undefined): void => {
    if (!principal) throw errors.unauthorized('The AccessKey header does not name a valid API key.');
    if (options.personalKeyOnly && principal.keyKind !== 'personal') {
      throw errors.forbidden('Container operations require a personal API key; an account API key was sent.', 'personal_key_required');
    }
    if (!READ_METHODS.has(request.method) && !canWrite(principal)) {
      throw errors.forbidden('This API key is read-only and cannot change anything.', 'read_only_key');
    }
    request.principal = principal;
  };
  app.addHook(
    'onRequest',
    quickHook((request) => {
      const presented = request.headers['accesskey'];
      if (typeof presented !== 'string' || presented.length === 0) throw errors.unauthorized();
      // Bound the work an attacker can cause: no real key is this long.
      if (presented.length > 256) return admit(request, undefined);
      const cached = apiKeys.cached(presented);
      if (cached) return admit(request, cached);
      return apiKeys.authenticate(presented).then((principal) => admit(request, principal));
    }),
  );
}
