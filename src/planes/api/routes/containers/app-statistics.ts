import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ApplicationStatistics, StatisticsQuery } from '../../../../schemas/container-platform.js';
import { AppParams } from '../../../../schemas/containers.js';

export default function appStatistics(app: Api) {
  app.get('/apps/:appId/statistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getApplicationStatistics',
      summary: 'Charts of an application over a period: instances, CPU, regions, volume space, and what would be measured',
      description:
        'One point per day, hour or minute (at most 1500). Regions and volume space come from what the application was set to run. Instances and CPU: when containers run (podman), what the instance answering measured, for the periods it measured (kept in memory: minutes for the last 24 hours, hours for the last 32 days); otherwise instances come from what the application was set to run and CPU is 0. Latency, memory, traffic and space used are 0: edgeplane keeps no history of them.',
      tags: ['Container applications'],
      params: AppParams,
      querystring: StatisticsQuery,
      response: { 200: ApplicationStatistics, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.insights.statistics(req.principal, req.params.appId, req.query),
  });
}
