import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { PullZone, PullZoneUpdateRequest } from '../../../../schemas/pull-zone.js';

export default function updatePullZone(app: Api) {
  app.post('/pullzone/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'updatePullZone',
      summary: 'Change settings of a pull zone; fields left out or null keep their value',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      body: PullZoneUpdateRequest,
      response: { 200: PullZone, ...errorResponses },
    },
    handler: (req) => app.services.pullZones.update(req.principal, req.params.id, req.body),
  });
}
