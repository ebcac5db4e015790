import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { NoContent, PodParams } from '../../../../schemas/containers.js';

export default function recreatePod(app: Api) {
  app.post('/apps/:appId/pods/:podId/recreate', {
    config: { access: 'write' },
    schema: {
      operationId: 'recreatePod',
      summary: 'Replace one running pod of an application with a new one; its status stays as it is',
      description: 'The new pod has a new id and node and keeps the volume instances of the old one. A pod of an application that is not running: 409.',
      tags: ['Container applications'],
      params: PodParams,
      response: { 200: NoContent('Recreated.'), ...errorResponses, 409: { $ref: 'ErrorBody#' } },
    },
    handler: async (req, reply) => {
      await app.services.containerApps.recreatePod(req.principal, req.params.appId, req.params.podId);
      return reply.code(200).send();
    },
  });
}
