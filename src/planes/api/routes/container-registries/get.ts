import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ContainerRegistry, RegistryParams } from '../../../../schemas/container-registries.js';

export default function getRegistry(app: Api) {
  app.get('/registries/:registryId', {
    config: { access: 'read' },
    schema: {
      operationId: 'getContainerRegistry',
      summary: 'Read an image registry of the account (its password only by its first and last characters)',
      tags: ['Container applications'],
      params: RegistryParams,
      response: { 200: ContainerRegistry, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.registries.get(req.principal, req.params.registryId),
  });
}
