import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { CursorPageQuery, ListNodesResponse } from '../../../../schemas/container-platform.js';

export default function listNodes(app: Api) {
  app.get('/nodes', {
    config: { access: 'read' },
    schema: {
      operationId: 'listContainerNodes',
      summary: "The IP addresses of the nodes the account's running instances are on, a page at a time",
      tags: ['Container applications'],
      querystring: CursorPageQuery,
      response: { 200: ListNodesResponse, ...errorResponses },
    },
    handler: (req) => app.services.containerApps.platform.nodes(req.principal, req.query),
  });
}
