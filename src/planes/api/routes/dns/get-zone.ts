import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsZone, DnsZoneIdParams } from '../../../../schemas/dns.js';

export default function getDnsZone(app: Api) {
  app.get('/dnszone/:id', {
    config: { access: 'read' },
    schema: {
      operationId: 'getDnsZone',
      summary: 'Read a DNS zone with all of its records',
      tags: ['DNS zones'],
      params: DnsZoneIdParams,
      response: { 200: DnsZone, ...errorResponses },
    },
    handler: (req) => app.services.dnsZones.get(req.principal, req.params.id),
  });
}
