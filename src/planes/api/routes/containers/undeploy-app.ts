import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, NoContent } from '../../../../schemas/containers.js';

export default function undeployApp(app: Api) {
  app.post('/apps/:appId/undeploy', {
    config: { access: 'write' },
    schema: {
      operationId: 'undeployApplication',
      summary: 'Stop every instance of an application: its status goes to progressing, then inactive',
      tags: ['Container applications'],
      params: AppParams,
      response: { 200: NoContent('Stopping (or already stopped).'), ...errorResponses, 409: { $ref: 'ErrorBody#' } },
    },
    handler: async (req, reply) => {
      await app.services.containerApps.undeploy(req.principal, req.params.appId);
      return reply.code(200).send();
    },
  });
}
