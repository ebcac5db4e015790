import { DnsZoneIdParams, DnsZoneStatistics } from '../../../../schemas/dns.js';
import { StatisticsRange } from '../../../../schemas/statistics.js';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';

export default function dnsZoneStatistics(app: Api) {
  app.get('/dnszone/:id/statistics', {
    config: { access: 'read' },
    schema: {
      operationId: 'getDnsZoneStatistics',
      summary: 'Queries a DNS zone answered, day by day and by type',
      tags: ['DNS zones'],
      params: DnsZoneIdParams,
      querystring: StatisticsRange,
      response: { 200: DnsZoneStatistics, ...errorResponses },
    },
    handler: (req) => app.services.dnsStatistics.zone(req.principal, req.params.id, req.query),
  });
}
