import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Int64 } from '../../../../schemas/common.js';
import { OperatorUsage } from '../../../../schemas/operator.js';
import { PullZone } from '../../../../schemas/pull-zone.js';

const tags = ['Operator'];
const params = Type.Object({ id: Int64({ minimum: 1, description: 'Pull zone id (any account).' }) });

export default function operatorPullZoneRoutes(app: Api) {
  app.post('/pullzones/:id/usage', {
    schema: {
      operationId: 'operatorAddUsage',
      summary: 'Record bandwidth served by a pull zone (adds to MonthlyBandwidthUsed)',
      tags,
      params,
      body: OperatorUsage,
      response: { 200: PullZone, ...errorResponses },
    },
    handler: (req) => app.services.operator.addUsage(req.params.id, req.body.Bytes),
  });

  for (const [path, suspended] of [
    ['suspend', true],
    ['unsuspend', false],
  ] as const) {
    app.post(`/pullzones/:id/${path}`, {
      schema: {
        operationId: suspended ? 'operatorSuspendPullZone' : 'operatorUnsuspendPullZone',
        summary: suspended ? 'Suspend a pull zone' : "Lift a pull zone's suspension",
        tags,
        params,
        response: { 200: PullZone, ...errorResponses },
      },
      handler: (req) => app.services.operator.setSuspended(req.params.id, suspended),
    });
  }
}
