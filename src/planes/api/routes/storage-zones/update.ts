import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { StorageZoneUpdateRequest } from '../../../../schemas/storage-zone.js';

export default function updateStorageZone(app: Api) {
  app.post('/storagezone/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateStorageZone',
      summary: 'Change a storage zone: add replication regions (never removed), origin and 404 handling',
      tags: ['Storage zones'],
      params: IdParams('storage zone'),
      body: StorageZoneUpdateRequest,
      response: { 204: Type.Null({ description: 'Updated.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.storageZones.update(req.principal, req.params.id, req.body);
      return reply.code(204).send(null);
    },
  });
}
