import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { StorageRegion } from '../../../../schemas/reference-data.js';

export default function listStorageRegions(app: Api) {
  app.get('/storagezone/regions', {
    config: { access: 'read' },
    schema: {
      operationId: 'listStorageZoneRegions',
      summary: 'List the regions storage zones can keep files in, with the address of their file API',
      tags: ['Storage zones'],
      response: { 200: Type.Array(StorageRegion), ...errorResponses },
    },
    handler: () => app.services.referenceData.storageRegions(),
  });
}
