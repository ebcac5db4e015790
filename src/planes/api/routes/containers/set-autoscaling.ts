import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, AutoScaling, NoContent } from '../../../../schemas/containers.js';

export default function setAutoscaling(app: Api) {
  app.put('/apps/:appId/autoscaling', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateApplicationAutoscaling',
      summary: 'Set the instance count bounds of an application',
      description: '`min` and `max` are 1 to 1000, and `min` may not exceed `max`. The application runs `min` instances.',
      tags: ['Container applications'],
      params: AppParams,
      body: AutoScaling,
      response: { 200: NoContent('Updated.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.containerApps.settings.setAutoScaling(req.principal, req.params.appId, req.body);
      return reply.code(200).send();
    },
  });
}
