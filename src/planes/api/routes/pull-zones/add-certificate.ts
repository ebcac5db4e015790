import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { AddCertificateBody } from './bodies.js';

export default function addPullZoneCertificate(app: Api) {
  app.post('/pullzone/:id/addCertificate', {
    config: { access: 'write' },
    schema: {
      operationId: 'addPullZoneCertificate',
      summary: 'Install a custom TLS certificate and its key on a custom hostname of a pull zone',
      description: 'The certificate must parse and the key must belong to it (else 400); a previous certificate is replaced.',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      body: AddCertificateBody,
      response: { 204: Type.Null({ description: 'Installed.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.pullZones.certificates.add(req.principal, req.params.id, req.body);
      return reply.code(204).send(null);
    },
  });
}
