import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { HostnameBody } from './bodies.js';

export default function addPullZoneHostname(app: Api) {
  app.post('/pullzone/:id/addHostname', {
    config: { access: 'write' },
    schema: {
      operationId: 'addPullZoneHostname',
      summary: 'Add a custom hostname to a pull zone; a hostname belongs to one zone across the platform',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      body: HostnameBody('The hostname to add, e.g. cdn.example.com; stored in lowercase.'),
      response: { 204: Type.Null({ description: 'Added (or already on the zone).' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.pullZones.hostnames.add(req.principal, req.params.id, req.body.Hostname);
      return reply.code(204).send(null);
    },
  });
}
