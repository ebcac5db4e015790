import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { FaultRules } from '../../../../schemas/faults.js';

const tags = ['Operator'];

/** Rules are held in memory by this instance: with several instances, configure each. */
export default function operatorFaultRoutes(app: Api) {
  app.get('/faults', {
    schema: { operationId: 'operatorGetFaults', summary: 'The fault injection rules in force', tags, response: { 200: FaultRules, ...errorResponses } },
    handler: () => ({ rules: app.services.faults.list() }),
  });

  app.put('/faults', {
    schema: {
      operationId: 'operatorSetFaults',
      summary: 'Replace the fault injection rules',
      tags,
      body: FaultRules,
      response: { 200: FaultRules, ...errorResponses },
    },
    handler: (req) => ({ rules: app.services.faults.replace(req.body.rules) }),
  });

  app.delete('/faults', {
    schema: {
      operationId: 'operatorClearFaults',
      summary: 'Remove every fault injection rule',
      tags,
      response: { 204: Type.Null({ description: 'Rules removed.' }), ...errorResponses },
    },
    handler: async (_req, reply) => {
      app.services.faults.clear();
      return reply.code(204).send(null);
    },
  });
}
