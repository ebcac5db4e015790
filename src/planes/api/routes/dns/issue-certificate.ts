import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsZoneCertificateParams, Done, IssueWildcardCertificateBody } from '../../../../schemas/certificates.js';

export default function issueDnsZoneCertificate(app: Api) {
  app.post('/dnszone/:zoneId/certificate/issue', {
    config: { access: 'write' },
    schema: {
      operationId: 'issueDnsZoneWildcardCertificate',
      summary: "Issue a wildcard certificate for a DNS zone's domain from edgeplane's local certificate authority",
      description:
        'A DNS-01 style check first: a TXT record `_acme-challenge.<domain>` with a fresh value is added to the zone and must be answered by the DNS plane (a delegation or CNAME hiding it fails with 400); it is removed again. The certificate covers `*.<domain>` and `<domain>`; the edge serves it for the names the zone points at it.',
      tags: ['DNS zones'],
      params: DnsZoneCertificateParams,
      body: IssueWildcardCertificateBody,
      response: { 200: Done('Issued.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.certificates.zones.issue(req.principal, req.params.zoneId, req.body?.Domain);
      return reply.code(200).send();
    },
  });
}
