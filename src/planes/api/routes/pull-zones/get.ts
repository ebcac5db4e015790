import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IdParams } from '../../../../schemas/ids.js';
import { PullZone } from '../../../../schemas/pull-zone.js';

export default function getPullZone(app: Api) {
  app.get('/pullzone/:id', {
    config: { access: 'read' },
    schema: {
      operationId: 'getPullZone',
      summary: 'Read a pull zone with all its settings',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      querystring: Type.Object({
        includeCertificate: Type.Boolean({ default: false, description: 'When true, hostnames carry their certificate and private key.' }),
      }),
      response: { 200: PullZone, ...errorResponses },
    },
    handler: (req, reply) =>
      app.answers.send(
        reply,
        { kind: 'pullZone', accountId: req.principal.accountId, id: req.params.id, variant: req.query.includeCertificate ? 'certificates' : '' },
        () => app.services.pullZones.get(req.principal, req.params.id, req.query.includeCertificate),
      ),
  });
}
