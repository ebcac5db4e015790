import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Region } from '../../../../schemas/reference-data.js';

export default function listRegions(app: Api) {
  app.get('/region', {
    config: { access: 'read' },
    schema: {
      operationId: 'listRegions',
      summary: 'List the edge regions with the price of a GB served from each',
      tags: ['Reference data'],
      response: { 200: Type.Array(Region), ...errorResponses },
    },
    handler: () => app.services.referenceData.regions(),
  });
}
