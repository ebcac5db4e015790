import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';

export default function resetStorageZoneReadOnlyPassword(app: Api) {
  // The platform takes this zone's id from the query string, unlike its sibling operation.
  app.post('/storagezone/resetReadOnlyPassword', {
    config: { access: 'write' },
    schema: {
      operationId: 'resetStorageZoneReadOnlyPassword',
      summary: 'Replace the read-only password of a storage zone; the old one stops working',
      tags: ['Storage zones'],
      querystring: IdParams('storage zone'),
      response: { 204: Type.Null({ description: 'Replaced; read the zone to see the new value.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.storageZones.resetPassword(req.principal, req.query.id, 'ReadOnlyPassword');
      return reply.code(204).send(null);
    },
  });
}
