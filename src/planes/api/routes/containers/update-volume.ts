import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { PatchVolumeRequest, UpdateVolumeResponse, VolumeParams } from '../../../../schemas/containers.js';

export default function updateVolume(app: Api) {
  app.patch('/apps/:appId/volumes/:volumeId', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateApplicationVolume',
      summary: 'Rename or grow a persistent volume of an application; the containers that mount it follow',
      tags: ['Container applications'],
      params: VolumeParams,
      body: PatchVolumeRequest,
      response: { 200: UpdateVolumeResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.volumes.update(req.principal, req.params.appId, req.params.volumeId, req.body),
  });
}
