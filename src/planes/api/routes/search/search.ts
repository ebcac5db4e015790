import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { SearchQuery, SearchResults } from '../../../../schemas/search.js';

export default function search(app: Api) {
  app.get('/search', {
    config: { access: 'read' },
    schema: {
      operationId: 'search',
      summary: "Find the account's pull zones, storage zones, DNS zones, video libraries and container applications by name or host name",
      tags: ['Search'],
      querystring: SearchQuery,
      response: { 200: SearchResults, ...errorResponses },
    },
    handler: (req) => app.services.search.search(req.principal, req.query),
  });
}
