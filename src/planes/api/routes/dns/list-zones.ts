import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsZone } from '../../../../schemas/dns.js';
import { Paged } from '../../../../schemas/paging.js';
import { dnsPaging } from './params.js';

export default function listDnsZones(app: Api) {
  app.get('/dnszone', {
    config: { access: 'read' },
    schema: {
      operationId: 'listDnsZones',
      summary: 'List the DNS zones of the account, one page at a time',
      description: '`search` matches part of the domain. The Lite view leaves out the records (`Records` is empty).',
      tags: ['DNS zones'],
      querystring: Type.Object({
        ...dnsPaging,
        view: Type.Unsafe<0 | 1>({
          type: 'integer',
          enum: [0, 1],
          default: 0,
          description: 'How much of each zone to send: 0 = Full, 1 = Lite (without records).',
        }),
      }),
      response: { 200: Paged(DnsZone, 'DNS zones'), ...errorResponses },
    },
    handler: (req) => app.services.dnsZones.list(req.principal, req.query),
  });
}
