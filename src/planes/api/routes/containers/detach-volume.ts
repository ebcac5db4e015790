import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DetachVolumeResponse, VolumeParams } from '../../../../schemas/containers.js';

export default function detachVolume(app: Api) {
  app.post('/apps/:appId/volumes/:volumeId/detach', {
    config: { access: 'write' },
    schema: {
      operationId: 'detachApplicationVolume',
      summary: 'Unmount a persistent volume from every container of an application; its instances stay',
      tags: ['Container applications'],
      params: VolumeParams,
      response: { 200: DetachVolumeResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.volumes.detach(req.principal, req.params.appId, req.params.volumeId),
  });
}
