import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ApiKeyIdParams } from '../../../../schemas/api-key.js';

export default function revokeApiKey(app: Api) {
  app.delete('/apikey/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key of the account (edgeplane extension); it stops working at once',
      tags: ['API keys'],
      params: ApiKeyIdParams,
      response: { 204: Type.Null({ description: 'Revoked.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.apiKeys.revoke(req.principal, req.params.id);
      return reply.code(204).send(null);
    },
  });
}
