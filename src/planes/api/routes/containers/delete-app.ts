import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, NoContent } from '../../../../schemas/containers.js';

export default function deleteApp(app: Api) {
  app.delete('/apps/:appId', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteApplication',
      summary: 'Delete an application with its containers; pull zones in front of it are released',
      tags: ['Container applications'],
      params: AppParams,
      response: { 200: NoContent('Deleted.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.containerApps.delete(req.principal, req.params.appId);
      return reply.code(200).send();
    },
  });
}
