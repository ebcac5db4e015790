import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { EdgeRule } from '../../../../schemas/pull-zone.js';
import { EdgeRuleRequest, PullZoneIdParams } from './bodies.js';

export default function addOrUpdateEdgeRule(app: Api) {
  app.post('/pullzone/:pullZoneId/edgerules/addOrUpdate', {
    config: { access: 'write' },
    schema: {
      operationId: 'addOrUpdateEdgeRule',
      summary: 'Add an edge rule to a pull zone, or change the rule with the Guid sent',
      description: "Answers 201 with the rule as stored (the platform answers an empty 201), so a new rule's generated Guid is known.",
      tags: ['Pull zones'],
      params: PullZoneIdParams,
      body: EdgeRuleRequest,
      response: { 201: EdgeRule, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await app.services.pullZones.edgeRules.addOrUpdate(req.principal, req.params.pullZoneId, req.body)),
  });
}
