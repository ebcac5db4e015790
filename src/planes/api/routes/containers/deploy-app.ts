import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, NoContent } from '../../../../schemas/containers.js';

export default function deployApp(app: Api) {
  app.post('/apps/:appId/deploy', {
    config: { access: 'write' },
    schema: {
      operationId: 'deployApplication',
      summary: 'Run an application: its status goes to progressing, then active',
      tags: ['Container applications'],
      params: AppParams,
      response: { 200: NoContent('Deploying (or already deployed).'), ...errorResponses, 409: { $ref: 'ErrorBody#' } },
    },
    handler: async (req, reply) => {
      await app.services.containerApps.deploy(req.principal, req.params.appId);
      return reply.code(200).send();
    },
  });
}
