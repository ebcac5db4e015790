import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsRecordParams, writeResponses } from './params.js';

export default function deleteDnsRecord(app: Api) {
  app.delete('/dnszone/:zoneId/records/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'deleteDnsRecord',
      summary: 'Delete a record of a DNS zone',
      description: 'A record already deleted is a 404.',
      tags: ['DNS zones'],
      params: DnsRecordParams,
      response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses, ...writeResponses },
    },
    handler: async (req, reply) => {
      await app.services.dnsZones.records.delete(req.principal, req.params.zoneId, req.params.id);
      return reply.code(204).send(null);
    },
  });
}
