import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { ResetSecurityKeyBody } from './bodies.js';

export default function resetPullZoneSecurityKey(app: Api) {
  app.post('/pullzone/:id/resetSecurityKey', {
    config: { access: 'write' },
    schema: {
      operationId: 'resetPullZoneSecurityKey',
      summary: 'Replace the token-authentication key of a pull zone; URLs signed with the old key stop working',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      body: ResetSecurityKeyBody,
      response: { 204: Type.Null({ description: 'Replaced.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.pullZones.resetSecurityKey(req.principal, req.params.id, req.body?.SecurityKey);
      return reply.code(204).send(null);
    },
  });
}
