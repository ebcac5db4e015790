/**
 * The operator credential (`EDGEPLANE_ADMIN_TOKEN`, sent as `Authorization: Bearer <token>`) guards
 * every /_edgeplane/ route but health. Account keys never work here, and with no token configured
 * the routes do not exist at all (404), so a default install exposes no operator surface.
 */
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../domain/errors.js';
import { constantTimeEquals } from '../../../security/secrets.js';

export function registerOperatorAuth(app: FastifyInstance, adminToken: string | undefined): void {
  app.addHook('onRequest', async (request) => {
    if (!adminToken) throw errors.notFound('operator route');
    const header = request.headers.authorization ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!constantTimeEquals(presented, adminToken)) {
      throw errors.unauthorized('Operator routes need `Authorization: Bearer <EDGEPLANE_ADMIN_TOKEN>`.');
    }
  });
}
