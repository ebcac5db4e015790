import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { PullZone, PullZoneAddRequest } from '../../../../schemas/pull-zone.js';

export default function createPullZone(app: Api) {
  app.post('/pullzone', {
    config: { access: 'write' },
    schema: {
      operationId: 'createPullZone',
      summary: 'Create a pull zone; it gets a system hostname `<name>.<cdn domain>`',
      tags: ['Pull zones'],
      body: PullZoneAddRequest,
      response: { 201: PullZone, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await app.services.pullZones.create(req.principal, req.body)),
  });
}
