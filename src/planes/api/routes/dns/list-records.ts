import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { IntEnum } from '../../../../schemas/common.js';
import { DNS_RECORD_TYPES, DnsRecord, DnsZoneRecordsParams, type DnsRecordType } from '../../../../schemas/dns.js';
import { Paged } from '../../../../schemas/paging.js';
import { dnsPaging } from './params.js';

const recordTypes = DNS_RECORD_TYPES.map((_, i) => i as DnsRecordType);

export default function listDnsRecords(app: Api) {
  app.get('/dnszone/:zoneId/records', {
    config: { access: 'read' },
    schema: {
      operationId: 'listDnsRecords',
      summary: 'List the records of a DNS zone, one page at a time',
      description: 'In the order they were added. `type` keeps one record type; `search` matches part of the name or the value.',
      tags: ['DNS zones'],
      params: DnsZoneRecordsParams,
      querystring: Type.Object({
        ...dnsPaging,
        type: Type.Optional(IntEnum(recordTypes, { description: `Only records of this type: ${DNS_RECORD_TYPES.map((t, i) => `${i} = ${t}`).join(', ')}.` })),
      }),
      response: { 200: Paged(DnsRecord, 'DNS records'), ...errorResponses },
    },
    handler: (req) => app.services.dnsZones.records.list(req.principal, req.params.zoneId, req.query),
  });
}
