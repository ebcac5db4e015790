import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';

export default function deletePullZone(app: Api) {
  app.delete('/pullzone/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'deletePullZone',
      summary: 'Delete a pull zone with its hostnames; a zone of a video library goes with its library only (400)',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.pullZones.delete(req.principal, req.params.id);
      return reply.code(204).send(null);
    },
  });
}
