/**
 * Bodies, queries and answers of the certificate operations (src/domain/certificates/): the free
 * certificate and key type of pull zone hostnames, the external DNS and HTTP challenge flows, and
 * the wildcard certificate of a DNS zone. Field names as the platform's.
 */
import { Type } from 'typebox';
import { DateTime, Int64, IntEnum, Nullable } from './common.js';

const closed = { additionalProperties: false } as const;

const HostnameField = (description: string) => Type.String({ minLength: 1, description });

/** Body of POST /pullzone/{id}/updatePrivateKeyType. */
export const PrivateKeyUpdateBody = Type.Object(
  {
    Hostname: HostnameField('A custom hostname of the pull zone.'),
    KeyType: IntEnum([0, 1] as const, {
      description: 'Key algorithm of the certificates issued for the hostname: 0 = Ecdsa (P-256), 1 = Rsa (2048 bits).',
    }),
  },
  closed,
);

/** Body of the four external certificate operations. */
export const ExternalCertificateBody = Type.Object({ Hostname: HostnameField('A custom hostname of one of your pull zones.') }, closed);

/** Query of GET /pullzone/loadFreeCertificate. */
export const LoadFreeCertificateQuery = Type.Object({
  hostname: Type.String({ minLength: 1, description: 'A custom hostname of one of your pull zones.' }),
  useOnlyHttp01: Type.Boolean({
    default: true,
    description: 'False: a hostname inside one of your DNS zones is recorded as validated through DNS (CertificateProvisionType 2) rather than HTTP (1).',
  }),
});

/** Body of POST /dnszone/{zoneId}/certificate/issue (optional, as on the platform). */
export const IssueWildcardCertificateBody = Nullable(
  Type.Object(
    {
      Domain: Type.Optional(
        Nullable(Type.String(), {
          description: "The domain the certificate covers with its wildcard: the zone's own (the default) or a name inside it.",
        }),
      ),
    },
    closed,
  ),
  { description: "Optional: the domain to cover; the zone's own when left out." },
);

export const DnsZoneCertificateParams = Type.Object({
  zoneId: Int64({ minimum: 1, description: 'Identifier of the DNS zone.' }),
});

/** What POST /pullzone/requestExternalDnsCertificate answers (the platform leaves the shape open). */
export const DnsCertificateChallenge = Type.Object(
  {
    Hostname: Type.String({ description: 'The hostname the certificate is for.' }),
    RecordName: Type.String({ description: 'The name of the TXT record to publish: `_acme-challenge.<hostname>`.' }),
    RecordType: Type.Literal('TXT', { description: 'Always TXT.' }),
    RecordValue: Type.String({ description: 'The value the TXT record must hold.' }),
    PublishedInDnsZoneId: Nullable(Int64(), {
      description:
        'The DNS zone of your account edgeplane published the record in (the hostname lies in it), removed again on completion; null when you must publish it yourself.',
    }),
    ExpiresAt: DateTime({ description: 'Complete the challenge before this time, or ask for a new one.' }),
  },
  { ...closed, description: 'The TXT record that proves control of the hostname.' },
);

/** What POST /pullzone/requestExternalHttpCertificate answers (the platform leaves the shape open). */
export const HttpCertificateChallenge = Type.Object(
  {
    Hostname: Type.String({ description: 'The hostname the certificate is for.' }),
    Token: Type.String({ description: 'The last segment of the challenge URL.' }),
    Url: Type.String({ description: 'Where the file must be answered: `http://<hostname>/.well-known/acme-challenge/<token>`.' }),
    FileContent: Type.String({ description: 'The exact body the URL must answer (the edge answers it itself unless built-in issuance is off for the zone).' }),
    ExpiresAt: DateTime({ description: 'Complete the challenge before this time, or ask for a new one.' }),
  },
  { ...closed, description: 'The HTTP file that proves control of the hostname.' },
);

/** The platform answers these operations 200 with no body. */
export const Done = (description: string) => Type.Unsafe<undefined>({ type: 'null', description });
