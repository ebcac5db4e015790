import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { StorageZone, StorageZoneAddRequest } from '../../../../schemas/storage-zone.js';

export default function createStorageZone(app: Api) {
  app.post('/storagezone', {
    config: { access: 'write' },
    schema: {
      operationId: 'createStorageZone',
      summary: 'Create a storage zone in a main region, optionally replicated to others',
      tags: ['Storage zones'],
      body: StorageZoneAddRequest,
      response: { 201: StorageZone, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await app.services.storageZones.create(req.principal, req.body)),
  });
}
