import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { EdgeRuleParams } from './bodies.js';

export default function deleteEdgeRule(app: Api) {
  app.delete('/pullzone/:pullZoneId/edgerules/:edgeRuleId', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteEdgeRule',
      summary: 'Delete an edge rule of a pull zone',
      tags: ['Pull zones'],
      params: EdgeRuleParams,
      response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.pullZones.edgeRules.delete(req.principal, req.params.pullZoneId, req.params.edgeRuleId);
      return reply.code(204).send(null);
    },
  });
}
