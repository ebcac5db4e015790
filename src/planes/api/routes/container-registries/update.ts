import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ContainerRegistryRequest, RegistryParams, SaveContainerRegistryResult } from '../../../../schemas/container-registries.js';

export default function updateRegistry(app: Api) {
  app.put('/registries/:registryId', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateContainerRegistry',
      summary: 'Change an image registry; credentials left out are kept, new ones are checked with the registry',
      tags: ['Container applications'],
      params: RegistryParams,
      body: ContainerRegistryRequest,
      response: { 200: SaveContainerRegistryResult, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.registries.update(req.principal, req.params.registryId, req.body),
  });
}
