import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { registryErrorResponses } from './responses.js';
import { ImageAtTagRequest, ImageConfig } from '../../../../schemas/container-registries.js';

export default function getImageConfig(app: Api) {
  app.post('/registries/image-config', {
    // Asks the registry; changes nothing.
    config: { access: 'read' },
    schema: {
      operationId: 'getContainerImageConfig',
      summary: "Endpoints and volumes an image calls for, read from the image's configuration in its registry",
      tags: ['Container applications'],
      body: ImageAtTagRequest,
      response: { 200: ImageConfig, ...errorResponses, ...registryErrorResponses },
    },
    handler: (req) => app.services.containerApps.registries.imageConfig(req.principal, req.body),
  });
}
