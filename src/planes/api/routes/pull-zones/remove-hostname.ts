import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { HostnameBody } from './bodies.js';

export default function removePullZoneHostname(app: Api) {
  app.delete('/pullzone/:id/removeHostname', {
    config: { access: 'write' },
    schema: {
      operationId: 'removePullZoneHostname',
      summary: 'Remove a custom hostname (and its certificate) from a pull zone; the system hostname stays (400)',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      body: HostnameBody('The hostname to remove.'),
      response: { 204: Type.Null({ description: 'Removed.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.pullZones.hostnames.remove(req.principal, req.params.id, req.body.Hostname);
      return reply.code(204).send(null);
    },
  });
}
