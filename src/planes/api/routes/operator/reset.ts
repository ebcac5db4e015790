import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { resetStore } from '../../../../seed/prepare.js';

export default function resetRoute(app: Api) {
  app.post('/reset', {
    schema: {
      operationId: 'operatorReset',
      summary: 'Empty the store, or put it back to the seed, atomically',
      description:
        'With `{"to": "empty"}` (default) every account and resource is deleted; the bootstrap account (EDGEPLANE_BOOTSTRAP_KEY) is created again if configured. With `{"to": "seed"}` the seed file is applied after that. Concurrent requests see the state before or after, never half.',
      tags: ['Operator'],
      body: Type.Optional(
        Type.Object(
          { to: Type.Optional(Type.Union([Type.Literal('empty'), Type.Literal('seed')], { default: 'empty', description: 'The state to reset to.' })) },
          { additionalProperties: false },
        ),
      ),
      response: {
        200: Type.Object({
          to: Type.String({ description: 'The state reset to.' }),
          accounts: Type.Integer({ description: 'Accounts created by the reset.' }),
          created: Type.Integer({ description: 'Keys and resources created from the seed.' }),
        }),
        ...errorResponses,
      },
    },
    handler: async (req) => resetStore(app, app.config, app.resetGate, req.body?.to ?? 'empty'),
  });
}
