import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { OptimalBaseRegionResponse, OptimalRegionQuery } from '../../../../schemas/container-platform.js';

export default function optimalRegion(app: Api) {
  app.get('/regions/optimal', {
    config: { access: 'read' },
    schema: {
      operationId: 'getOptimalContainerRegion',
      summary: 'The region to base a new application in',
      description: 'A `cdnServerToken` that is a region code picks that region; any other token, or none, gets the default region (DE).',
      tags: ['Container applications'],
      querystring: OptimalRegionQuery,
      response: { 200: OptimalBaseRegionResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.platform.optimalRegion(req.query.cdnServerToken),
  });
}
