import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ApplicationStatistics, StatisticsQuery } from '../../../../schemas/container-platform.js';
import { AppParams } from '../../../../schemas/containers.js';

export default function appStatistics(app: Api) {
  app.get('/apps/:appId/statistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getApplicationStatistics',
      summary: 'Charts of an application over a period: instances, regions, volume space, and what would be measured',
      description:
        'One point per day, hour or minute (at most 1500). Instances, regions and volume space come from what the application was set to run; latency, CPU, memory, traffic and space used are 0: edgeplane keeps no history of them (with podman, CPU is measured for autoscaling and shown in the overview).',
      tags: ['Container applications'],
      params: AppParams,
      querystring: StatisticsQuery,
      response: { 200: ApplicationStatistics, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.insights.statistics(req.principal, req.params.appId, req.query),
  });
}
