import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ContainerRegistryRequest, SaveContainerRegistryResult } from '../../../../schemas/container-registries.js';

export default function createRegistry(app: Api) {
  app.post('/registries', {
    config: { access: 'write' },
    schema: {
      operationId: 'addContainerRegistry',
      summary: 'Add an image registry; its credentials are checked with the registry first',
      tags: ['Container applications'],
      body: ContainerRegistryRequest,
      response: { 200: SaveContainerRegistryResult, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.registries.create(req.principal, req.body),
  });
}
