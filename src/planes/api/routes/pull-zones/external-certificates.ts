import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { DnsCertificateChallenge, Done, ExternalCertificateBody, HttpCertificateChallenge } from '../../../../schemas/certificates.js';

/** The external certificate flows: a challenge published, then really checked before the local authority issues (src/domain/certificates/external-challenges.ts). */
export default function externalCertificates(app: Api) {
  const external = () => app.services.certificates.external;
  app.post('/pullzone/requestExternalDnsCertificate', {
    config: { access: 'write' },
    schema: {
      operationId: 'requestPullZoneExternalDnsCertificate',
      summary: 'Start a DNS-validated certificate for a custom hostname: the TXT record to publish',
      description:
        'When the hostname lies in one of your DNS zones, edgeplane publishes the record there itself. Asking again replaces the previous challenge.',
      tags: ['Pull zones'],
      body: ExternalCertificateBody,
      response: { 200: DnsCertificateChallenge, ...errorResponses },
    },
    handler: (req) => external().requestDns(req.principal, req.body.Hostname),
  });
  app.post('/pullzone/completeExternalDnsCertificate', {
    config: { access: 'write' },
    schema: {
      operationId: 'completePullZoneExternalDnsCertificate',
      summary: 'Check the published TXT record and, when it holds the value, install a certificate for the hostname',
      description:
        "The record is looked up through edgeplane's DNS plane for names in its zones, through EDGEPLANE_DNS_UPSTREAM for the others; 400 saying what was found otherwise.",
      tags: ['Pull zones'],
      body: ExternalCertificateBody,
      response: { 200: Done('Checked; the certificate is installed.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await external().completeDns(req.principal, req.body.Hostname);
      return reply.code(200).send();
    },
  });
  app.post('/pullzone/requestExternalHttpCertificate', {
    config: { access: 'write' },
    schema: {
      operationId: 'requestPullZoneExternalHttpCertificate',
      summary: 'Start an HTTP-validated certificate for a custom hostname: the file its URL must answer',
      description: 'The edge answers the URL itself while the challenge is open, unless the zone turned built-in issuance off (then the origin must).',
      tags: ['Pull zones'],
      body: ExternalCertificateBody,
      response: { 200: HttpCertificateChallenge, ...errorResponses },
    },
    handler: (req) => external().requestHttp(req.principal, req.body.Hostname),
  });
  app.post('/pullzone/completeExternalHttpCertificate', {
    config: { access: 'write' },
    schema: {
      operationId: 'completePullZoneExternalHttpCertificate',
      summary: 'Fetch the challenge file through the edge and, when it matches, install a certificate for the hostname',
      tags: ['Pull zones'],
      body: ExternalCertificateBody,
      response: { 200: Done('Checked; the certificate is installed.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await external().completeHttp(req.principal, req.body.Hostname);
      return reply.code(200).send();
    },
  });
}
