import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { RegistryParams, RemoveContainerRegistryResult } from '../../../../schemas/container-registries.js';

export default function deleteRegistry(app: Api) {
  app.delete('/registries/:registryId', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteContainerRegistry',
      summary: 'Delete an image registry; one a container pulls from is refused (409)',
      tags: ['Container applications'],
      params: RegistryParams,
      response: { 200: RemoveContainerRegistryResult, ...errorResponses, 409: { $ref: 'ErrorBody#' } },
    },
    handler: (req) => app.services.containerApps.registries.delete(req.principal, req.params.registryId),
  });
}
