import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, NoContent } from '../../../../schemas/containers.js';

export default function restartApp(app: Api) {
  app.post('/apps/:appId/restart', {
    config: { access: 'write' },
    schema: {
      operationId: 'restartApplication',
      summary: 'Replace every pod of a deployed application; its status stays as it is',
      tags: ['Container applications'],
      params: AppParams,
      response: { 200: NoContent('Restarted (nothing to do when the application is not deployed).'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.containerApps.restart(req.principal, req.params.appId);
      return reply.code(200).send();
    },
  });
}
