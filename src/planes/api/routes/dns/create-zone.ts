import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsZone, DnsZoneAddRequest } from '../../../../schemas/dns.js';

export default function createDnsZone(app: Api) {
  app.post('/dnszone', {
    config: { access: 'write' },
    schema: {
      operationId: 'createDnsZone',
      summary: 'Add a DNS zone for a domain, optionally with its first records',
      description: 'The domain is stored in lower case and can be served by only one zone on the whole platform.',
      tags: ['DNS zones'],
      body: DnsZoneAddRequest,
      response: { 201: DnsZone, ...errorResponses },
    },
    handler: async (req, reply) => reply.code(201).send(await app.services.dnsZones.create(req.principal, req.body)),
  });
}
