import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsZoneIdParams } from '../../../../schemas/dns.js';

export default function exportDnsZone(app: Api) {
  app.get('/dnszone/:id/export', {
    config: { access: 'read' },
    schema: {
      operationId: 'exportDnsZone',
      summary: 'Download a DNS zone as a zone file',
      description:
        'The zone in the standard zone-file format (RFC 1035), which DNS servers load as is: $ORIGIN, $TTL, ' +
        'the SOA and NS records the platform publishes, then every record. What the format cannot carry travels in ' +
        "comments starting with `edgeplane:`: records of the platform's own types (Redirect, Flatten, PullZone, " +
        "Script) and disabled records as `; edgeplane:<Type> <name> <ttl> Key=value …`, and a record's platform " +
        'settings (Comment, MonitorType, …) after it as `; edgeplane: Key=value …`. Importing the file restores them.',
      tags: ['DNS zones'],
      params: DnsZoneIdParams,
      produces: ['text/plain'],
      response: {
        200: { description: 'The zone file.', content: { 'text/plain': { schema: Type.String() } } },
        ...errorResponses,
      },
    },
    handler: async (req, reply) => {
      const { domain, text } = await app.services.dnsZones.exportZoneFile(req.principal, req.params.id);
      return reply.type('text/plain; charset=utf-8').header('content-disposition', `attachment; filename="${domain}.zone"`).send(text);
    },
  });
}
