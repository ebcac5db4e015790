import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ContainerParams, ContainerPatchRequest, ContainerTemplate } from '../../../../schemas/containers.js';

export default function patchContainer(app: Api) {
  app.patch('/apps/:appId/containers/:containerId', {
    config: { access: 'write' },
    schema: {
      operationId: 'patchApplicationContainerTemplate',
      summary: 'Change some settings of a container template',
      description: 'Fields left out (or null) keep their value; arrays sent replace the stored ones.',
      tags: ['Container applications'],
      params: ContainerParams,
      body: ContainerPatchRequest,
      response: { 200: ContainerTemplate, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.containers.patch(req.principal, req.params.appId, req.params.containerId, req.body),
  });
}
