import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsZoneIdParams } from '../../../../schemas/dns.js';

export default function deleteDnsZone(app: Api) {
  app.delete('/dnszone/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteDnsZone',
      summary: 'Delete a DNS zone with all of its records',
      description: 'The domain becomes free to add again. A zone already deleted is a 404.',
      tags: ['DNS zones'],
      params: DnsZoneIdParams,
      response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.dnsZones.delete(req.principal, req.params.id);
      return reply.code(204).send(null);
    },
  });
}
