import { DnsSecDsRecord, DnsZoneIdParams } from '../../../../schemas/dns.js';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';

export default function dnsZoneDnssec(app: Api) {
  app.post('/dnszone/:id/dnssec', {
    config: { access: 'write' },
    schema: {
      operationId: 'enableDnsZoneDnssec',
      summary: 'Sign a DNS zone with DNSSEC and answer the DS record to publish at its parent',
      tags: ['DNS zones'],
      params: DnsZoneIdParams,
      response: { 200: DnsSecDsRecord, ...errorResponses },
    },
    handler: (req) => app.services.dnsZones.enableDnssec(req.principal, req.params.id),
  });
  app.delete('/dnszone/:id/dnssec', {
    config: { access: 'write' },
    schema: {
      operationId: 'disableDnsZoneDnssec',
      summary: 'Stop signing a DNS zone (its key is discarded: remove the DS from the parent first)',
      tags: ['DNS zones'],
      params: DnsZoneIdParams,
      response: { 200: DnsSecDsRecord, ...errorResponses },
    },
    handler: (req) => app.services.dnsZones.disableDnssec(req.principal, req.params.id),
  });
}
