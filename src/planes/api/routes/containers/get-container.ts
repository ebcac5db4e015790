import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ContainerParams, ContainerTemplate } from '../../../../schemas/containers.js';

export default function getContainer(app: Api) {
  app.get('/apps/:appId/containers/:containerId', {
    config: { access: 'read' },
    schema: {
      operationId: 'getApplicationContainerTemplate',
      summary: 'Read one container template of an application',
      tags: ['Container applications'],
      params: ContainerParams,
      response: { 200: ContainerTemplate, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.containers.get(req.principal, req.params.appId, req.params.containerId),
  });
}
