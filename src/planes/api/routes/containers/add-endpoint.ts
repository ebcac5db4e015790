import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ContainerParams, EndpointRequest, EndpointUpdateResponse } from '../../../../schemas/containers.js';

export default function addEndpoint(app: Api) {
  app.post('/apps/:appId/containers/:containerId/endpoints', {
    config: { access: 'write' },
    schema: {
      operationId: 'addApplicationEndpoint',
      summary: 'Add a CDN or anycast endpoint to a container',
      description: 'Give exactly one of `cdn` and `anycast`; the display name must be new in the application.',
      tags: ['Container applications'],
      params: ContainerParams,
      body: EndpointRequest,
      response: { 201: EndpointUpdateResponse, ...errorResponses },
    },
    handler: async (req, reply) =>
      reply.code(201).send(await app.services.containerApps.endpoints.add(req.principal, req.params.appId, req.params.containerId, req.body)),
  });
}
