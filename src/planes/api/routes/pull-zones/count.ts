import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { PullZoneCount } from './bodies.js';

export default function countPullZones(app: Api) {
  app.get('/pullzone/count', {
    config: { access: 'read' },
    schema: {
      operationId: 'countPullZones',
      summary: 'Count the pull zones of the account',
      tags: ['Pull zones'],
      response: { 200: PullZoneCount, ...errorResponses },
    },
    handler: async (req) => ({ Count: await app.services.pullZones.count(req.principal) }),
  });
}
