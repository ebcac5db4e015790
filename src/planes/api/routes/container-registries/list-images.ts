import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { registryErrorResponses } from './responses.js';
import { ContainerImages, ListContainerImagesRequest } from '../../../../schemas/container-registries.js';

export default function listImages(app: Api) {
  app.post('/registries/images', {
    // Asks the registry; changes nothing.
    config: { access: 'read' },
    schema: {
      operationId: 'listContainerImages',
      summary: "List every image of a registry, from the registry's catalog",
      tags: ['Container applications'],
      body: ListContainerImagesRequest,
      response: { 200: ContainerImages, ...errorResponses, ...registryErrorResponses },
    },
    handler: (req) => app.services.containerApps.registries.listImages(req.principal, req.body),
  });
}
