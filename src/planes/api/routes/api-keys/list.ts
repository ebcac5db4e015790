import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ApiKeyListQuery, ApiKeyPage } from '../../../../schemas/api-key.js';

export default function listApiKeys(app: Api) {
  app.get('/apikey', {
    config: { access: 'read' },
    schema: {
      operationId: 'listApiKeys',
      summary: 'List the API keys of the account, one page at a time',
      tags: ['API keys'],
      querystring: ApiKeyListQuery,
      response: { 200: ApiKeyPage, ...errorResponses },
    },
    handler: (req) => app.services.apiKeys.list(req.principal, req.query.page, req.query.perPage),
  });
}
