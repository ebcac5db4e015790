import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsRecord, DnsRecordRequest, DnsZoneRecordsParams } from '../../../../schemas/dns.js';

export default function addDnsRecord(app: Api) {
  app.put('/dnszone/:zoneId/records', {
    config: { access: 'write' },
    schema: {
      operationId: 'addDnsRecord',
      summary: 'Add a record to a DNS zone',
      description:
        'Each record type needs its own fields (an address for A, a host name for CNAME, Priority for MX, …); ' +
        'a missing or malformed one is a 400 naming the field. Fields not sent take their defaults (Ttl 300, numbers 0).',
      tags: ['DNS zones'],
      params: DnsZoneRecordsParams,
      body: DnsRecordRequest,
      response: { 201: DnsRecord, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await app.services.dnsZones.records.add(req.principal, req.params.zoneId, req.body)),
  });
}
