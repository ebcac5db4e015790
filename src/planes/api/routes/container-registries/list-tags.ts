import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { registryErrorResponses } from './responses.js';
import { ContainerImageTags, ListContainerImageTagsRequest } from '../../../../schemas/container-registries.js';

export default function listTags(app: Api) {
  app.post('/registries/tags', {
    // Asks the registry; changes nothing.
    config: { access: 'read' },
    schema: {
      operationId: 'listContainerImageTags',
      summary: 'List the tags of an image, as its registry has them',
      tags: ['Container applications'],
      body: ListContainerImageTagsRequest,
      response: { 200: ContainerImageTags, ...errorResponses, ...registryErrorResponses },
    },
    handler: (req) => app.services.containerApps.registries.tags(req.principal, req.body),
  });
}
