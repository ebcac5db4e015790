import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ApiKey, ApiKeyCreateRequest } from '../../../../schemas/api-key.js';

export default function createApiKey(app: Api) {
  app.post('/apikey', {
    config: { access: 'write' },
    schema: {
      operationId: 'createApiKey',
      summary: 'Issue a new personal API key for the account (edgeplane extension)',
      description: 'Not part of the platform\'s API: lets tests and operators create further keys, e.g. `{"Roles": ["ReadOnly"]}`.',
      tags: ['API keys'],
      body: ApiKeyCreateRequest,
      response: { 201: ApiKey, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await app.services.apiKeys.create(req.principal, req.body.Roles ?? [])),
  });
}
