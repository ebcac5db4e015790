import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ListApplicationsQuery, ListApplicationsResponse } from '../../../../schemas/containers.js';

export default function listApps(app: Api) {
  app.get('/apps', {
    config: { access: 'read' },
    schema: {
      operationId: 'listApplications',
      summary: 'List the applications of the account with their status, a page at a time',
      description: 'Send the `cursor` of an answer as `nextCursor` to get the next page; it is null on the last one.',
      tags: ['Container applications'],
      querystring: ListApplicationsQuery,
      response: { 200: ListApplicationsResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.list(req.principal, req.query),
  });
}
