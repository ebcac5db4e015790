import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { UsageSummary } from '../../../../schemas/container-platform.js';
import { AppParams } from '../../../../schemas/containers.js';

export default function appSummary(app: Api) {
  app.get('/apps/:appId/summary', {
    config: { access: 'read' },
    schema: {
      operationId: 'getApplicationUsageSummary',
      summary: 'Usage of an application: its status, volume space, latency and cost',
      tags: ['Container applications'],
      params: AppParams,
      response: { 200: UsageSummary, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.insights.summary(req.principal, req.params.appId),
  });
}
