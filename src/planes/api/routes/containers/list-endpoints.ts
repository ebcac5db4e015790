import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, ListEndpointsResponse } from '../../../../schemas/containers.js';

export default function listEndpoints(app: Api) {
  app.get('/apps/:appId/endpoints', {
    config: { access: 'read' },
    schema: {
      operationId: 'listApplicationEndpoints',
      summary: 'List the endpoints of every container of an application',
      tags: ['Container applications'],
      params: AppParams,
      response: { 200: ListEndpointsResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.endpoints.list(req.principal, req.params.appId),
  });
}
