import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { HostnameBody } from './bodies.js';

export default function removePullZoneCertificate(app: Api) {
  app.delete('/pullzone/:id/removeCertificate', {
    config: { access: 'write' },
    schema: {
      operationId: 'removePullZoneCertificate',
      summary: 'Remove the custom certificate of a hostname of a pull zone (404 when it has none)',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      body: HostnameBody('The hostname whose certificate is removed.'),
      response: { 204: Type.Null({ description: 'Removed.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.pullZones.certificates.remove(req.principal, req.params.id, req.body.Hostname);
      return reply.code(204).send(null);
    },
  });
}
