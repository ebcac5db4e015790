import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsZone, DnsZoneIdParams, DnsZoneUpdateRequest } from '../../../../schemas/dns.js';
import { writeResponses } from './params.js';

export default function updateDnsZone(app: Api) {
  app.post('/dnszone/:id', {
    config: { access: 'write' },
    schema: {
      operationId: 'updateDnsZone',
      summary: 'Change the settings of a DNS zone',
      description:
        'Fields left out or null keep their value. Nameserver1/Nameserver2 can name other servers only with ' +
        "CustomNameserversEnabled; turning it off restores the platform's name servers. The answer is the whole zone.",
      tags: ['DNS zones'],
      params: DnsZoneIdParams,
      body: DnsZoneUpdateRequest,
      response: { 200: DnsZone, ...errorResponses, ...writeResponses },
    },
    handler: (req) => app.services.dnsZones.update(req.principal, req.params.id, req.body),
  });
}
