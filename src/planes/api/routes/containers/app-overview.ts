import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Overview } from '../../../../schemas/container-platform.js';
import { AppParams } from '../../../../schemas/containers.js';

export default function appOverview(app: Api) {
  app.get('/apps/:appId/overview', {
    config: { access: 'read' },
    schema: {
      operationId: 'getApplicationOverview',
      summary: 'The state of an application at a glance: instances per region, pods, containers and their status',
      tags: ['Container applications'],
      params: AppParams,
      response: { 200: Overview, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.insights.overview(req.principal, req.params.appId),
  });
}
