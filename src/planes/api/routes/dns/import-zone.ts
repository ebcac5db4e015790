import { Type } from 'typebox';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsZoneRecordsParams } from '../../../../schemas/dns.js';
import { Int32 } from '../../../../schemas/common.js';
import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../../../domain/errors.js';
import { ZoneFileReader, type ZoneFileReading } from '../../../../domain/dns/zone-file.js';

/**
 * Zone files are read as they arrive, a line at a time, so a big zone (about 50 bytes a record: a
 * 16 MiB file holds some 300,000 records) imports in one request without its text being held, and
 * without the JSON body limit (EDGEPLANE_BODY_LIMIT), which is for JSON.
 */
export const ZONE_FILE_BYTES = 16 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The zone file of an import, read by readZoneFileBody. */
    zoneFile: ZoneFileReading | undefined;
  }
}

/**
 * The import's content-type parser: the text goes into a ZoneFileReader as it arrives, and the
 * reading is kept on the request. Validation then sees an empty string for the body (its schema
 * says text, for the OpenAPI document), and the handler takes the reading.
 */
export async function readZoneFileBody(request: FastifyRequest, payload: IncomingMessage): Promise<string> {
  const reader = new ZoneFileReader();
  // UTF-8 characters split across chunks are put back together.
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > ZONE_FILE_BYTES) throw errors.payloadTooLarge(`Zone files are limited to ${ZONE_FILE_BYTES / 1024 / 1024} MiB.`);
    reader.write(decoder.write(chunk));
  }
  reader.write(decoder.end());
  request.zoneFile = reader.end();
  return '';
}

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
      body: Type.String({ description: `The zone file (at most ${ZONE_FILE_BYTES / 1024 / 1024} MiB).` }),
      response: { 200: DnsZoneImportResult, ...errorResponses, 409: { $ref: 'ErrorBody#' }, 413: { $ref: 'ErrorBody#' }, 415: { $ref: 'ErrorBody#' } },
    },
    handler: (req) => {
      if (!req.zoneFile) throw errors.validation('body', 'Send the zone file as text/plain.');
      return app.services.dnsZones.records.importZoneFile(req.principal, req.params.zoneId, req.zoneFile);
    },
  });
}
