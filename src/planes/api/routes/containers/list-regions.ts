import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { CursorPageQuery, ListRegionsResponse } from '../../../../schemas/container-platform.js';

export default function listRegions(app: Api) {
  app.get('/regions', {
    config: { access: 'read' },
    schema: {
      operationId: 'listContainerRegions',
      summary: 'The regions applications can run in, a page at a time',
      tags: ['Container applications'],
      querystring: CursorPageQuery,
      response: { 200: ListRegionsResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.platform.regions(req.principal, req.query),
  });
}
