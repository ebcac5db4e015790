import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { registryErrorResponses } from './responses.js';
import { ImageAtTagRequest, ImageTagInfo } from '../../../../schemas/container-registries.js';

export default function getDigest(app: Api) {
  app.post('/registries/digest', {
    // Asks the registry; changes nothing.
    config: { access: 'read' },
    schema: {
      operationId: 'getContainerImageDigest',
      summary: 'The content digest a tag of an image points at, as its registry reports it',
      tags: ['Container applications'],
      body: ImageAtTagRequest,
      response: { 200: ImageTagInfo, ...errorResponses, ...registryErrorResponses },
    },
    handler: (req) => app.services.containerApps.registries.digest(req.principal, req.body),
  });
}
