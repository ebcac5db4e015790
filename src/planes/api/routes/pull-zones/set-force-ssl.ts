import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { ForceSslBody } from './bodies.js';

export default function setPullZoneForceSsl(app: Api) {
  app.post('/pullzone/:id/setForceSSL', {
    config: { access: 'write' },
    schema: {
      operationId: 'setPullZoneForceSsl',
      summary: 'Turn HTTPS redirection on or off for one hostname of a pull zone',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      body: ForceSslBody,
      response: { 204: Type.Null({ description: 'Set.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.pullZones.hostnames.setForceSSL(req.principal, req.params.id, req.body.Hostname, req.body.ForceSSL);
      return reply.code(204).send(null);
    },
  });
}
