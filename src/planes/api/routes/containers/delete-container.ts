import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ContainerParams, NoContent } from '../../../../schemas/containers.js';

export default function deleteContainer(app: Api) {
  app.delete('/apps/:appId/containers/:containerId', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteApplicationContainerTemplate',
      summary: 'Delete a container template; an application keeps at least one',
      tags: ['Container applications'],
      params: ContainerParams,
      response: { 200: NoContent('Deleted.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.containerApps.containers.delete(req.principal, req.params.appId, req.params.containerId);
      return reply.code(200).send();
    },
  });
}
