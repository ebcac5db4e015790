import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsZoneRecordsParams } from '../../../../schemas/dns.js';
import { Int32 } from '../../../../schemas/common.js';
import { readZoneFile } from '../../../../domain/dns/zone-file.js';

/** The platform's DnsZoneImportResultModel. */
const DnsZoneImportResult = Type.Object(
  {
    RecordsSuccessful: Int32({ description: 'Records added to the zone.' }),
    RecordsFailed: Int32({ description: 'Records that could not be added: invalid data, a type the platform cannot serve, a name outside the zone.' }),
    RecordsSkipped: Int32({ description: "Records left out on purpose: the SOA, NS records of the zone's own name servers, records the zone already has." }),
  },
  { additionalProperties: false, description: 'What an import did.' },
);

/** Registered in a scope of its own that reads text bodies (see index.ts). */
export default function importDnsZone(app: Api) {
  app.post('/dnszone/:zoneId/import', {
    config: { access: 'write' },
    schema: {
      operationId: 'importDnsZone',
      summary: 'Add the records of a zone file to a DNS zone',
      description:
        'The body is a zone file (RFC 1035) sent as text/plain, such as the export of another zone. Names ' +
        'are relative to the zone unless $ORIGIN says otherwise. A file that cannot be read is a 400 naming the line, ' +
        'and adds nothing; otherwise every record that can be added is, and the answer counts what happened.',
      tags: ['DNS zones'],
      consumes: ['text/plain'],
      params: DnsZoneRecordsParams,
      body: Type.String({ description: 'The zone file.' }),
      response: { 200: DnsZoneImportResult, ...errorResponses, 409: { $ref: 'ErrorBody#' }, 413: { $ref: 'ErrorBody#' }, 415: { $ref: 'ErrorBody#' } },
    },
    handler: (req) => app.services.dnsZones.records.importZoneFile(req.principal, req.params.zoneId, readZoneFile(req.body)),
  });
}
