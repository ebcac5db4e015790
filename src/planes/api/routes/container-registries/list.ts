import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ListContainerRegistriesResponse } from '../../../../schemas/container-registries.js';

export default function listRegistries(app: Api) {
  app.get('/registries', {
    config: { access: 'read' },
    schema: {
      operationId: 'listContainerRegistries',
      summary: 'List the image registries of the account',
      tags: ['Container applications'],
      response: { 200: ListContainerRegistriesResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.registries.list(req.principal),
  });
}
