import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { EdgeRuleParams, ToggleBody } from './bodies.js';

export default function setEdgeRuleEnabled(app: Api) {
  app.post('/pullzone/:pullZoneId/edgerules/:edgeRuleId/setEdgeRuleEnabled', {
    config: { access: 'write' },
    schema: {
      operationId: 'setEdgeRuleEnabled',
      summary: 'Enable or disable an edge rule of a pull zone',
      tags: ['Pull zones'],
      params: EdgeRuleParams,
      body: ToggleBody,
      response: { 204: Type.Null({ description: 'Set.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.pullZones.edgeRules.setEnabled(req.principal, req.params.pullZoneId, req.params.edgeRuleId, req.body.Value);
      return reply.code(204).send(null);
    },
  });
}
