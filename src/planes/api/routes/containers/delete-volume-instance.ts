import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DeleteVolumeInstanceResponse, VolumeInstanceParams } from '../../../../schemas/containers.js';

export default function deleteVolumeInstance(app: Api) {
  app.delete('/apps/:appId/volumes/:volumeId/instances/:instanceId', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteApplicationVolumeInstance',
      summary: 'Delete one instance of a detached volume, with its data',
      tags: ['Container applications'],
      params: VolumeInstanceParams,
      response: { 200: DeleteVolumeInstanceResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.volumes.deleteInstance(req.principal, req.params.appId, req.params.volumeId, req.params.instanceId),
  });
}
