/**
 * A read-only key's rights follow what an operation does, as each route declares it
 * (`config: { access }`), not its HTTP method; and no authenticated route can be registered
 * without saying, so none is left to a guess.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiKeyService } from '../../src/domain/api-keys/service.js';
import { AppError } from '../../src/domain/errors.js';
import type { Principal } from '../../src/domain/principal.js';
import { registerAuth } from '../../src/planes/api/plugins/auth.js';

const readOnly: Principal = { accountId: 1, keyId: 1, keyKind: 'personal', roles: ['ReadOnly'] };
const fullAccess: Principal = { accountId: 1, keyId: 2, keyKind: 'personal', roles: ['FullAccess'] };
const KEYS: Record<string, Principal> = { 'read-only-key': readOnly, 'full-access-key': fullAccess };

/** Only what registerAuth calls; every key here is "cached", so no store is needed. */
const apiKeys = {
  cached: (presented: string) => KEYS[presented],
  authenticate: async (presented: string) => KEYS[presented],
} as unknown as ApiKeyService;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function appWith(routes: (scope: FastifyInstance) => void): Promise<FastifyInstance> {
  app = Fastify();
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof AppError)) return reply.code(500).send({ key: String(error) });
    return reply.code(error.code === 'forbidden' ? 403 : error.code === 'unauthorized' ? 401 : 500).send({ key: error.key });
  });
  await app.register(async (scope) => {
    registerAuth(scope, apiKeys, { personalKeyOnly: false });
    routes(scope);
  });
  await app.ready();
  return app;
}

describe('access per operation', () => {
  it('refuses to register an authenticated route that does not declare whether it reads or writes', async () => {
    await expect(appWith((scope) => scope.post('/undeclared', async () => ({})))).rejects.toThrow(/POST \/undeclared: declare config\.access/);
    await expect(appWith((scope) => scope.get('/undeclared', { config: {} }, async () => ({})))).rejects.toThrow(/GET \/undeclared: declare config\.access/);
  });

  it('lets a read-only key call a POST declared a read, and refuses it a GET declared a write', async () => {
    const served = await appWith((scope) => {
      scope.post('/check', { config: { access: 'read' } }, async () => ({ ok: true }));
      scope.post('/change', { config: { access: 'write' } }, async () => ({ ok: true }));
      scope.get('/look', { config: { access: 'read' } }, async () => ({ ok: true }));
      scope.get('/side-effect', { config: { access: 'write' } }, async () => ({ ok: true }));
    });
    const call = async (method: 'GET' | 'POST', url: string, key: string) => {
      const res = await served.inject({ method, url, headers: { accesskey: key }, ...(method === 'POST' ? { payload: {} } : {}) });
      return { status: res.statusCode, body: res.json() as unknown };
    };
    expect(await call('POST', '/check', 'read-only-key')).toEqual({ status: 200, body: { ok: true } });
    expect(await call('GET', '/look', 'read-only-key')).toEqual({ status: 200, body: { ok: true } });
    expect(await call('POST', '/change', 'read-only-key')).toEqual({ status: 403, body: { key: 'read_only_key' } });
    expect(await call('GET', '/side-effect', 'read-only-key')).toEqual({ status: 403, body: { key: 'read_only_key' } });
    for (const [method, url] of [
      ['POST', '/check'],
      ['POST', '/change'],
      ['GET', '/look'],
      ['GET', '/side-effect'],
    ] as const) {
      expect(await call(method, url, 'full-access-key'), `${method} ${url}`).toEqual({ status: 200, body: { ok: true } });
    }
  });

  it('publishes the declaration in the route schema, where the OpenAPI document reads it', async () => {
    const schemas: Record<string, unknown>[] = [];
    await appWith((scope) => {
      scope.addHook('onRoute', (route) => {
        schemas.push({ ...route.schema });
      });
      scope.post('/check', { config: { access: 'read' }, schema: { summary: 'Check' } }, async () => ({}));
    });
    // registerAuth's hook runs first, so the scope's own hook already sees the extension.
    expect(schemas).toEqual([{ summary: 'Check', 'x-edgeplane-access': 'read' }]);
  });
});
