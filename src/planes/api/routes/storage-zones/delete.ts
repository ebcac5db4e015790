import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';

export default function deleteStorageZone(app: Api) {
  app.delete('/storagezone/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteStorageZone',
      summary: 'Delete a storage zone and, unless told otherwise, the pull zones that use it',
      tags: ['Storage zones'],
      params: IdParams('storage zone'),
      querystring: Type.Object({
        deleteLinkedPullZones: Type.Boolean({
          default: true,
          description: 'Also delete the pull zones that use this zone as their origin; when false and there are some, nothing is deleted (400).',
        }),
      }),
      response: {
        204: Type.Null({ description: 'Deleted; the zone remains listed with `Deleted: true` when deleted zones are asked for.' }),
        ...errorResponses,
      },
    },
    handler: async (req, reply) => {
      await app.services.storageZones.delete(req.principal, req.params.id, req.query.deleteLinkedPullZones);
      return reply.code(204).send(null);
    },
  });
}
