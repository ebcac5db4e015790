import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { EndpointParams, NoContent } from '../../../../schemas/containers.js';

export default function deleteEndpoint(app: Api) {
  app.delete('/apps/:appId/endpoints/:endpointId', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteApplicationEndpoint',
      summary: 'Delete an endpoint of an application; a pull zone in front of it is released',
      tags: ['Container applications'],
      params: EndpointParams,
      response: { 200: NoContent('Deleted.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.containerApps.endpoints.delete(req.principal, req.params.appId, req.params.endpointId);
      return reply.code(200).send();
    },
  });
}
