import { Type } from 'typebox';
import { Int32, Int64 } from '../../../../schemas/common.js';
import { DnsQueryLogEntry } from '../../../../schemas/operator.js';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';

export default function operatorDnsZoneRoutes(app: Api) {
  app.get('/dnszones/:id/querylog', {
    schema: {
      operationId: 'operatorDnsQueryLog',
      summary: "A DNS zone's query log on this instance: its last 1,000 queries, newest first (zones with LoggingEnabled)",
      tags: ['Operator'],
      params: Type.Object({ id: Int64({ minimum: 1, description: 'DNS zone id (any account).' }) }),
      querystring: Type.Object({ limit: Type.Optional(Int32({ minimum: 1, maximum: 1000, default: 100, description: 'How many entries.' })) }),
      response: { 200: Type.Array(DnsQueryLogEntry), ...errorResponses },
    },
    handler: (req) => app.services.dnsQueryLog.read(req.params.id, req.query.limit),
  });
}
