import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, AutoScaling } from '../../../../schemas/containers.js';

export default function getAutoscaling(app: Api) {
  app.get('/apps/:appId/autoscaling', {
    config: { access: 'read' },
    schema: {
      operationId: 'getApplicationAutoscaling',
      summary: 'Read the instance count bounds of an application',
      tags: ['Container applications'],
      params: AppParams,
      response: { 200: AutoScaling, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.settings.autoScaling(req.principal, req.params.appId),
  });
}
