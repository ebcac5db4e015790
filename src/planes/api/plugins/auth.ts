/**
 * Authentication for every API route registered in this scope: the `AccessKey` header names an
 * API key; the key's account becomes the request's principal. Read-only keys may only call
 * operations that read, and the container operations call for a personal key (an account key is
 * refused there).
 *
 * Whether an operation reads or writes is declared by the route itself (`config: { access }`),
 * not guessed from its HTTP method: the platform checks a name's availability with a POST that
 * changes nothing, and a read-only key must be able to call it. Registering a route here without
 * the declaration fails at start-up, so no operation is left to a default.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyService } from '../../../domain/api-keys/service.js';
import { errors } from '../../../domain/errors.js';
import { canWrite, type Principal } from '../../../domain/principal.js';
import { quickHook } from './quick-hook.js';

/** `read`: changes nothing, so a read-only key may call it. `write`: needs a key that may write. */
export type Access = 'read' | 'write';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifySchema {
    /** Copied from `config.access`: the OpenAPI document publishes each operation's access this way. */
    'x-edgeplane-access'?: Access;
  }
}

export function registerAuth(app: FastifyInstance, apiKeys: ApiKeyService, options: { personalKeyOnly: boolean }): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (access !== 'read' && access !== 'write') {
      throw new Error(`${route.method} ${route.url}: declare config.access ('read' or 'write'); authenticated routes must say whether they change anything`);
    }
    route.schema = { ...route.schema, 'x-edgeplane-access': access };
  });
  const admit = (request: FastifyRequest, principal: Principal | undefined): void => {
    if (!principal) throw errors.unauthorized('The AccessKey header does not name a valid API key.');
    if (options.personalKeyOnly && principal.keyKind !== 'personal') {
      throw errors.forbidden('Container operations require a personal API key; an account API key was sent.', 'personal_key_required');
    }
    // Full-access keys (the common case) never look the route up: routeOptions builds an object per call.
    if (!canWrite(principal) && request.routeOptions.config.access !== 'read') {
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
