import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ContainerParams, ContainerTemplate, EnvironmentVariablesRequest } from '../../../../schemas/containers.js';

export default function setContainerEnv(app: Api) {
  app.put('/apps/:appId/containers/:containerId/env', {
    config: { access: 'write' },
    schema: {
      operationId: 'setContainerEnvironmentVariables',
      summary: 'Replace every environment variable of a container template',
      tags: ['Container applications'],
      params: ContainerParams,
      body: EnvironmentVariablesRequest,
      response: { 200: ContainerTemplate, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.containers.setEnvironment(req.principal, req.params.appId, req.params.containerId, req.body),
  });
}
