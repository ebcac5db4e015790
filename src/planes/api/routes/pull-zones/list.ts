import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { ArrayOrPaged, PageQuery } from '../../../../schemas/paging.js';
import { PullZone } from '../../../../schemas/pull-zone.js';

export default function listPullZones(app: Api) {
  app.get('/pullzone', {
    config: { access: 'read' },
    schema: {
      operationId: 'listPullZones',
      summary: 'List the pull zones of the account, oldest first',
      description: 'Without `page` (or with 0) every zone comes back as a plain array; with page 1 and up, one page object.',
      tags: ['Pull zones'],
      querystring: Type.Object({
        ...PageQuery.properties,
        search: Type.Optional(Type.String({ description: 'Only zones whose name contains this text (case-insensitive).' })),
        includeCertificate: Type.Boolean({ default: false, description: 'When true, hostnames carry their certificate and private key.' }),
      }),
      response: { 200: ArrayOrPaged(PullZone, 'pull zones'), ...errorResponses },
    },
    handler: (req) => app.services.pullZones.list(req.principal, req.query),
  });
}
