import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { StorageZone } from '../../../../schemas/storage-zone.js';

export default function getStorageZone(app: Api) {
  app.get('/storagezone/:id', {
    config: { access: 'read' },
    schema: {
      operationId: 'getStorageZone',
      summary: 'Read a storage zone, with the pull zones that use it',
      tags: ['Storage zones'],
      params: IdParams('storage zone'),
      response: { 200: StorageZone, ...errorResponses },
    },
    handler: (req) => app.services.storageZones.get(req.principal, req.params.id),
  });
}
