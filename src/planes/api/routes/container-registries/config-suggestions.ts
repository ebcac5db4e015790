import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { registryErrorResponses } from './responses.js';
import { ContainerConfigSuggestions, ImageAtTagRequest } from '../../../../schemas/container-registries.js';

export default function configSuggestions(app: Api) {
  app.post('/registries/config-suggestions', {
    // Asks the registry; changes nothing.
    config: { access: 'read' },
    schema: {
      operationId: 'getContainerConfigSuggestions',
      summary: "A starting configuration for a container of an image: endpoints, volumes and environment from the image's configuration",
      tags: ['Container applications'],
      body: ImageAtTagRequest,
      response: { 200: ContainerConfigSuggestions, ...errorResponses, ...registryErrorResponses },
    },
    handler: (req) => app.services.containerApps.registries.suggestions(req.principal, req.body),
  });
}
