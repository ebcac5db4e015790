import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { registryErrorResponses } from './responses.js';
import { ContainerImages, SearchPublicContainerImagesRequest } from '../../../../schemas/container-registries.js';

export default function searchPublicImages(app: Api) {
  app.post('/registries/public-images/search', {
    // Asks the registry; changes nothing.
    config: { access: 'read' },
    schema: {
      operationId: 'searchContainerImages',
      summary: "Find a registry's images by the start of their name, from the registry's catalog",
      tags: ['Container applications'],
      body: SearchPublicContainerImagesRequest,
      response: { 200: ContainerImages, ...errorResponses, ...registryErrorResponses },
    },
    handler: (req) => app.services.containerApps.registries.searchImages(req.principal, req.body),
  });
}
