import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DeleteAllVolumeInstancesResponse, VolumeParams } from '../../../../schemas/containers.js';

export default function deleteVolumeInstances(app: Api) {
  app.delete('/apps/:appId/volumes/:volumeId', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteApplicationVolumeInstances',
      summary: 'Delete every instance of a detached volume, with its data; the volume stays in the settings',
      tags: ['Container applications'],
      params: VolumeParams,
      response: { 200: DeleteAllVolumeInstancesResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.volumes.deleteInstances(req.principal, req.params.appId, req.params.volumeId),
  });
}
