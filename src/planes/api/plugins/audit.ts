/**
 * Records every write the API answered with success in the account's audit log (domain/audit/),
 * after the operation and before the answer leaves, so a client that got its 2xx finds the entry.
 * What counts as a write is what the route declares (`config.access`), as for read-only keys; a
 * replayed idempotent answer wrote nothing and is not recorded again. The entry names the body's
 * fields, never their values.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditLogService } from '../../../domain/audit/log.js';
import { userIdOf } from '../../../domain/principal.js';
import { quickSendHook } from './quick-hook.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: the write leaves no account to log it in (closing the account). */
    audit?: boolean;
  }
  interface FastifyRequest {
    /** The id a write answered with, read from its answer before serialization (for the audit entry). */
    answeredId: string | null;
  }
}

/** The first path segment of a route names the product and the kind of resource it writes to. */
const RESOURCES: Record<string, { product: string; resourceType: string }> = {
  apikey: { product: 'Account', resourceType: 'ApiKey' },
  user: { product: 'Account', resourceType: 'User' },
  pullzone: { product: 'CDN', resourceType: 'PullZone' },
  storagezone: { product: 'Storage', resourceType: 'StorageZone' },
  dnszone: { product: 'DNS', resourceType: 'DnsZone' },
  videolibrary: { product: 'Stream', resourceType: 'VideoLibrary' },
  apps: { product: 'Containers', resourceType: 'ContainerApp' },
};

/** The parameters that name the resource a route writes to, in the order they are looked for. */
const ID_PARAMS = ['id', 'pullZoneId', 'zoneId', 'appId'];

function resourceOf(route: string): { product: string; resourceType: string } {
  const segments = route.split('/').filter(Boolean);
  const container = segments[0] === 'mc';
  const first = (container ? segments[1] : segments[0]) ?? '';
  return RESOURCES[first.toLowerCase()] ?? { product: container ? 'Containers' : 'Platform', resourceType: first };
}

/**
 * The id from the path or the query, else the one a create answered with. Every write answers an
 * object or nothing (none sends text), so the answer's id is read before it is serialized.
 */
function resourceIdOf(request: FastifyRequest, resourceType: string): string | null {
  if (resourceType === 'User') return userIdOf(request.principal.accountId);
  for (const source of [request.params, request.query] as Record<string, unknown>[]) {
    for (const name of ID_PARAMS) if (source?.[name] !== undefined) return String(source[name]);
  }
  return request.answeredId;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);

/** `Id` or `id` of an answer object, as text. */
function idOf(answer: Record<string, unknown>): string | null {
  const id = answer['Id'] ?? answer['id'];
  return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
}

export function registerAudit(app: FastifyInstance, audit: AuditLogService): void {
  app.decorateRequest('answeredId', null);
  // A create's id is taken from its answer before it is serialized: parsing the written JSON back
  // (a pull zone's 4.9 KB) cost a create 20-40 µs.
  app.addHook(
    'preSerialization',
    quickSendHook((request, _reply, payload) => {
      if (request.routeOptions.config.access === 'write' && isObject(payload)) request.answeredId = idOf(payload);
    }),
  );
  const record = async (request: FastifyRequest, payload: unknown) => {
    const route = request.routeOptions.url ?? request.url;
    const { product, resourceType } = resourceOf(route);
    try {
      await audit.record({
        principal: request.principal,
        product,
        resourceType,
        resourceId: resourceIdOf(request, resourceType),
        action: String(request.routeOptions.schema?.operationId ?? `${request.method} ${route}`),
        fields: isObject(request.body) ? Object.keys(request.body) : null,
      });
    } catch (error) {
      // The write is done and must be answered; a missing entry is logged rather than turned into a 500.
      request.log.error({ err: error }, 'could not record the audit entry');
    }
    return payload;
  };
  app.addHook(
    'onSend',
    quickSendHook((request, reply, payload) => {
      const config = request.routeOptions.config;
      if (config.access !== 'write' || config.audit === false || !request.principal) return;
      if (reply.statusCode < 200 || reply.statusCode >= 300 || reply.getHeader('idempotent-replayed') !== undefined) return;
      return record(request, payload);
    }),
  );
}
