import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { EndpointUpdateRequest, EndpointUpdateResponse } from '../../../../schemas/containers.js';

export default function updateEndpoint(app: Api) {
  app.put('/apps/:appId/endpoints/:endpointId', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateApplicationEndpoint',
      summary: 'Replace the settings of one endpoint of an application',
      description: 'Give exactly one of `cdn` and `anycast`. A new `displayName` renames the endpoint; its id and host stay.',
      tags: ['Container applications'],
      params: Type.Object({
        appId: Type.String({ minLength: 1, description: 'Id of the application.' }),
        endpointId: Type.String({ minLength: 1, description: 'Current display name of the endpoint (or its id).' }),
      }),
      body: EndpointUpdateRequest,
      response: { 200: EndpointUpdateResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.endpoints.update(req.principal, req.params.appId, req.params.endpointId, req.body),
  });
}
