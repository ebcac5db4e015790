import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';

export default function resetStorageZonePassword(app: Api) {
  app.post('/storagezone/:id/resetPassword', {
    config: { access: 'write' },
    schema: {
      operationId: 'resetStorageZonePassword',
      summary: 'Replace the read-write password of a storage zone; the old one stops working',
      tags: ['Storage zones'],
      params: IdParams('storage zone'),
      response: { 204: Type.Null({ description: 'Replaced; read the zone to see the new value.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.storageZones.resetPassword(req.principal, req.params.id, 'Password');
      return reply.code(204).send(null);
    },
  });
}
