import type { Api } from '../../api.js';
import { sendError } from '../../../common/errors.js';
import { Health } from '../../../../schemas/operator.js';
import { VERSION } from '../../../../version.js';

/** Unauthenticated, so load balancers and test setups can poll it. */
export default function healthRoute(app: Api) {
  app.get('/_edgeplane/health', {
    schema: {
      operationId: 'health',
      summary: 'Readiness: 200 once the server can serve, 503 while the store is unreachable',
      tags: ['Operator'],
      security: [],
      response: { 200: Health },
    },
    handler: async (req, reply) => {
      const ok = await app.services.health();
      if (!ok) return sendError(req, reply, 503, 'The store is unreachable.', 'unavailable');
      const runtime = app.services.appRuntime;
      return {
        status: 'ok' as const,
        version: VERSION,
        store: app.services.storeDialect,
        planes: app.planes.toJSON(),
        containers: { runtime: runtime.kind, description: runtime.description },
      };
    },
  });
}
