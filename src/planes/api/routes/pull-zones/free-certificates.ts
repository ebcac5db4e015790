import type { Api } from '../../api.js';
import { errorResponses } from '../../api.js';
import { Done, LoadFreeCertificateQuery, PrivateKeyUpdateBody } from '../../../../schemas/certificates.js';
import { IdParams } from '../../../../schemas/ids.js';

/** The certificates edgeplane's local authority issues for pull zone hostnames without a domain check (src/domain/certificates/free-certificates.ts). */
export default function freeCertificates(app: Api) {
  // A GET that writes, as on the platform: it needs a key that may write.
  app.get('/pullzone/loadFreeCertificate', {
    config: { access: 'write' },
    schema: {
      operationId: 'loadPullZoneFreeCertificate',
      summary: "Issue a certificate for a custom hostname from edgeplane's local certificate authority and install it",
      description:
        'The certificate (90 days, key type of the hostname) is stored on the hostname like an uploaded one and served by the edge. 400 for the system hostname or when the zone turned built-in issuance off.',
      tags: ['Pull zones'],
      querystring: LoadFreeCertificateQuery,
      response: { 200: Done('Issued and installed.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.certificates.free.loadFree(req.principal, req.query.hostname, req.query.useOnlyHttp01);
      return reply.code(200).send();
    },
  });
  app.post('/pullzone/:id/updatePrivateKeyType', {
    config: { access: 'write' },
    schema: {
      operationId: 'updatePullZonePrivateKeyType',
      summary: 'Choose the key algorithm (ECDSA or RSA) of the certificates issued for a hostname of a pull zone',
      description: 'A certificate edgeplane issued earlier is issued again at once with the new key type; an uploaded one is left as it is.',
      tags: ['Pull zones'],
      params: IdParams('pull zone'),
      body: PrivateKeyUpdateBody,
      response: { 200: Done('Changed.'), ...errorResponses },
    },
    handler: async (req, reply) => {
      await app.services.certificates.free.updateKeyType(req.principal, req.params.id, req.body.Hostname, req.body.KeyType);
      return reply.code(200).send();
    },
  });
}
