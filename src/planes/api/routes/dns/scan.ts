import { DnsRecordScan, DnsRecordScanParams, DnsRecordScanRequest, DnsRecordScanTriggered } from '../../../../schemas/dns-scan.js';
import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';

export default function dnsRecordScan(app: Api) {
  app.post('/dnszone/records/scan', {
    // It stores a scan in place of the domain's previous one, and sends queries on the account's behalf.
    config: { access: 'write' },
    schema: {
      operationId: 'triggerDnsRecordScan',
      summary: "Start a scan of a domain's existing records, for a zone of the account or for any domain",
      description:
        'The scan runs in the background: it asks the resolver named by `EDGEPLANE_DNS_UPSTREAM` for the names and types domains commonly publish (see the README). Without that setting: 503.',
      tags: ['DNS zones'],
      body: DnsRecordScanRequest,
      response: { 200: DnsRecordScanTriggered, ...errorResponses, 503: { $ref: 'ErrorBody#' } },
    },
    handler: (req) => app.services.dnsRecordScans.trigger(req.principal, req.body),
  });
  app.get('/dnszone/:zoneId/records/scan', {
    config: { access: 'read' },
    schema: {
      operationId: 'getDnsRecordScan',
      summary: "The latest record scan of a DNS zone's domain: its state, and the records found",
      tags: ['DNS zones'],
      params: DnsRecordScanParams,
      response: { 200: DnsRecordScan, ...errorResponses },
    },
    handler: (req) => app.services.dnsRecordScans.latest(req.principal, req.params.zoneId),
  });
}
