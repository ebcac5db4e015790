import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsRecordUpdateRequest } from '../../../../schemas/dns.js';
import { DnsRecordParams, writeResponses } from './params.js';

export default function updateDnsRecord(app: Api) {
  app.post('/dnszone/:zoneId/records/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateDnsRecord',
      summary: 'Change a record of a DNS zone',
      description:
        'Fields left out or null keep their value; the changed record must pass the same checks as a new one ' +
        '(changing Type to MX needs a host name in Value, …).',
      tags: ['DNS zones'],
      params: DnsRecordParams,
      body: DnsRecordUpdateRequest,
      response: { 204: Type.Null({ description: 'Updated; read the zone to see the record.' }), ...errorResponses, ...writeResponses },
    },
    handler: async (req, reply) => {
      await app.services.dnsZones.records.update(req.principal, req.params.zoneId, req.params.id, req.body);
      return reply.code(204).send(null);
    },
  });
}
