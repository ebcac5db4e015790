import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { AppParams, ListVolumesResponse } from '../../../../schemas/containers.js';

export default function listVolumes(app: Api) {
  app.get('/apps/:appId/volumes', {
    config: { access: 'read' },
    schema: {
      operationId: 'listApplicationVolumes',
      summary: 'List the persistent volumes of an application with their instances',
      tags: ['Container applications'],
      params: AppParams,
      response: { 200: ListVolumesResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.settings.volumes(req.principal, req.params.appId),
  });
}
