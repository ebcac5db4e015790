/**
 * DNS zones and their records (spec 2.5, part 3; operation 4.6). The core API travels in
 * PascalCase and sends its enums as integers; the `*_TYPES` name lists below give each integer its
 * meaning (index = wire value). The misspelling `EnviromentalVariables` is part of the interface.
 */
import { Type, type Static } from 'typebox';
import { DateTime, Double, Int32, Int64, IntEnum, Nullable } from './common.js';

/** `0 | 1 | … | n-1` for a tuple of n names. */
type IndexOf<T extends readonly unknown[]> = Exclude<Partial<T>['length'], T['length']>;
const indices = <T extends readonly string[]>(names: T): IndexOf<T>[] => names.map((_, i) => i) as IndexOf<T>[];
const enumDoc = (names: readonly string[]): string => names.map((n, i) => `${i} = ${n}`).join(', ');

export const DNS_RECORD_TYPES = [
  'A',
  'AAAA',
  'CNAME',
  'TXT',
  'MX',
  'Redirect',
  'Flatten',
  'PullZone',
  'SRV',
  'CAA',
  'PTR',
  'Script',
  'NS',
  'SVCB',
  'HTTPS',
  'TLSA',
] as const;
export const DNS_MONITOR_TYPES = ['None', 'Ping', 'Http', 'Monitor'] as const;
export const DNS_MONITOR_STATUSES = ['Unknown', 'Online', 'Offline'] as const;
export const DNS_SMART_ROUTING_TYPES = ['None', 'Latency', 'Geolocation'] as const;
export const DNS_ACCELERATION_STATUSES = ['None', 'Pending', 'Processing', 'Completed', 'Failed'] as const;
export const DNS_LOG_ANONYMIZATION_TYPES = ['OneDigit', 'Drop'] as const;
export const DNS_CERTIFICATE_KEY_TYPES = ['Ecdsa', 'Rsa'] as const;

export type DnsRecordType = IndexOf<typeof DNS_RECORD_TYPES>;
export type DnsMonitorType = IndexOf<typeof DNS_MONITOR_TYPES>;
export type DnsMonitorStatus = IndexOf<typeof DNS_MONITOR_STATUSES>;
export type DnsSmartRoutingType = IndexOf<typeof DNS_SMART_ROUTING_TYPES>;
export type DnsAccelerationStatus = IndexOf<typeof DNS_ACCELERATION_STATUSES>;

const RecordTypeEnum = (description: string) => IntEnum(indices(DNS_RECORD_TYPES), { description: `${description} ${enumDoc(DNS_RECORD_TYPES)}.` });
const MonitorTypeEnum = (description: string) => IntEnum(indices(DNS_MONITOR_TYPES), { description: `${description} ${enumDoc(DNS_MONITOR_TYPES)}.` });
const SmartRoutingEnum = (description: string) =>
  IntEnum(indices(DNS_SMART_ROUTING_TYPES), { description: `${description} ${enumDoc(DNS_SMART_ROUTING_TYPES)}.` });
const LogAnonymizationEnum = (description: string) =>
  IntEnum(indices(DNS_LOG_ANONYMIZATION_TYPES), { description: `${description} ${enumDoc(DNS_LOG_ANONYMIZATION_TYPES)}.` });
const CertificateKeyEnum = (description: string) =>
  IntEnum(indices(DNS_CERTIFICATE_KEY_TYPES), { description: `${description} ${enumDoc(DNS_CERTIFICATE_KEY_TYPES)}.` });

/** DNS TTLs are unsigned 31-bit values (RFC 2181), which is exactly the non-negative int32 range. */
const Ttl = (description: string) => Int32({ minimum: 0, description });
/** SRV/MX numbers are 16-bit unsigned on the wire. */
const U16 = (description: string) => Int32({ minimum: 0, maximum: 65535, description });
/** CAA flags are a single octet. */
const Byte = (description: string) => Type.Integer({ minimum: 0, maximum: 255, description });
const Latitude = (description: string) => Double({ minimum: -90, maximum: 90, description });
const Longitude = (description: string) => Double({ minimum: -180, maximum: 180, description });

export const DnsRecordEnvironmentVariable = Type.Object(
  {
    Name: Nullable(Type.String(), { description: "Variable name, visible to the record's script." }),
    Value: Nullable(Type.String(), { description: 'Variable value.' }),
  },
  { additionalProperties: false, description: 'A name/value pair handed to a script record.' },
);

const recordRequestProperties = {
  Type: Type.Optional(Nullable(RecordTypeEnum('Kind of record:'))),
  Ttl: Type.Optional(Nullable(Ttl('How long resolvers may cache the answer, in seconds.'))),
  Value: Type.Optional(Nullable(Type.String(), { description: 'Record data: an address, a host name, a text, depending on the type.' })),
  Name: Type.Optional(Nullable(Type.String(), { description: 'Label relative to the zone; empty for the zone apex.' })),
  Weight: Type.Optional(Nullable(U16('Relative share among records of the same name and type (SRV, weighted answers).'))),
  Priority: Type.Optional(Nullable(U16('Preference of the record; lower is tried first (MX, SRV).'))),
  Flags: Type.Optional(Nullable(Byte('Flag octet of a CAA record.'))),
  Tag: Type.Optional(Nullable(Type.String(), { description: 'Property tag of a CAA record, e.g. `issue`.' })),
  Port: Type.Optional(Nullable(U16('Target port of an SRV record.'))),
  PullZoneId: Type.Optional(Nullable(Int64(), { description: 'Pull zone a PullZone-type record points at.' })),
  ScriptId: Type.Optional(Nullable(Int64(), { description: 'The DNS script (ScriptType 0) of the account a Script-type record runs.' })),
  Accelerated: Type.Optional(Nullable(Type.Boolean(), { description: "Serve the record's traffic through the delivery network." })),
  MonitorType: Type.Optional(Nullable(MonitorTypeEnum("Health check run against the record's target:"))),
  GeolocationLatitude: Type.Optional(Nullable(Latitude('Latitude of the target, used by geolocation routing.'))),
  GeolocationLongitude: Type.Optional(Nullable(Longitude('Longitude of the target, used by geolocation routing.'))),
  LatencyZone: Type.Optional(Nullable(Type.String(), { description: 'Region the target sits in, used by latency routing.' })),
  SmartRoutingType: Type.Optional(Nullable(SmartRoutingEnum('How answers are chosen among records of the same name:'))),
  Disabled: Type.Optional(Nullable(Type.Boolean(), { description: 'Keep the record but stop answering with it.' })),
  EnviromentalVariables: Type.Optional(
    Nullable(Type.Array(DnsRecordEnvironmentVariable), {
      description:
        "Variables for a script record: environment variables of its script while it answers the record's queries (field name spelled as the interface spells it).",
    }),
  ),
  Comment: Type.Optional(Nullable(Type.String(), { description: 'Free note for people; not served.' })),
  AutoSslIssuance: Type.Optional(Nullable(Type.Boolean(), { description: 'Obtain a certificate for the name automatically.' })),
};

/** Body of PUT /dnszone/{zoneId}/records: every field may be left out or null. */
export const DnsRecordRequest = Type.Object(recordRequestProperties, {
  additionalProperties: false,
  description: 'A DNS record to add.',
});

/** Body of POST /dnszone/{zoneId}/records/{id}: the add fields, plus the record's own id. */
export const DnsRecordUpdateRequest = Type.Object(
  {
    ...recordRequestProperties,
    Id: Type.Optional(Int64({ description: 'Identifier of the record; when sent, it must name the record in the path.' })),
  },
  { additionalProperties: false, description: 'Changes to a DNS record; fields left out keep their value.' },
);

export const DnsRecordIpGeoLocation = Type.Object(
  {
    CountryCode: Nullable(Type.String(), { description: "ISO 3166 code of the country the record's address is in." }),
    Country: Nullable(Type.String(), { description: 'Name of that country.' }),
    ASN: Int64({ description: 'Autonomous system number announcing the address.' }),
    OrganizationName: Nullable(Type.String(), { description: 'Organization holding the address.' }),
    City: Nullable(Type.String(), { description: 'City the address is located in.' }),
  },
  { additionalProperties: false, description: "Where the address in the record's value is located." },
);

export const DnsRecordGeolocation = Type.Object(
  {
    Country: Nullable(Type.String(), { description: 'Country of the configured coordinates.' }),
    City: Nullable(Type.String(), { description: 'City nearest the configured coordinates.' }),
    Latitude: Double({ description: 'Configured latitude.' }),
    Longitude: Double({ description: 'Configured longitude.' }),
  },
  { additionalProperties: false, description: "Place named by the record's geolocation coordinates." },
);

/** A DNS record as returned. Every property is always sent. */
export const DnsRecord = Type.Object(
  {
    Id: Int64({ description: 'Identifier of the record.' }),
    Type: RecordTypeEnum('Kind of record:'),
    Ttl: Ttl('How long resolvers may cache the answer, in seconds.'),
    Value: Nullable(Type.String(), { description: 'Record data.' }),
    Name: Nullable(Type.String(), { description: 'Label relative to the zone; empty for the apex.' }),
    Weight: U16('Relative share among records of the same name and type.'),
    Priority: U16('Preference of the record; lower is tried first.'),
    Port: U16('Target port (SRV).'),
    Flags: Byte('Flag octet (CAA).'),
    Tag: Nullable(Type.String(), { description: 'Property tag (CAA).' }),
    Accelerated: Type.Boolean({ description: "True when the record's traffic goes through the delivery network." }),
    AcceleratedPullZoneId: Int64({ description: 'Pull zone created to accelerate the record; 0 when none.' }),
    LinkName: Nullable(Type.String(), { description: 'Name of the resource the record points at (pull zone or script), for display.' }),
    IPGeoLocationInfo: Nullable(DnsRecordIpGeoLocation, { description: "Location of the record's address; null when unknown." }),
    GeolocationInfo: Nullable(DnsRecordGeolocation, { description: "Place of the record's geolocation coordinates; null when none are set." }),
    MonitorStatus: IntEnum(indices(DNS_MONITOR_STATUSES), {
      description: `Last health check result: ${enumDoc(DNS_MONITOR_STATUSES)}.`,
    }),
    MonitorType: MonitorTypeEnum('Health check run against the target:'),
    GeolocationLatitude: Double({ description: 'Latitude used by geolocation routing.' }),
    GeolocationLongitude: Double({ description: 'Longitude used by geolocation routing.' }),
    EnviromentalVariables: Nullable(Type.Array(DnsRecordEnvironmentVariable), { description: 'Variables of a script record.' }),
    LatencyZone: Nullable(Type.String(), { description: 'Region used by latency routing.' }),
    SmartRoutingType: SmartRoutingEnum('How answers are chosen among records of the same name:'),
    Disabled: Type.Boolean({ description: 'True when the record is kept but not served.' }),
    Comment: Nullable(Type.String(), { description: 'Free note for people.' }),
    AutoSslIssuance: Type.Boolean({ description: 'True when a certificate is obtained for the name automatically.' }),
    AccelerationStatus: IntEnum(indices(DNS_ACCELERATION_STATUSES), {
      description: `Progress of turning acceleration on: ${enumDoc(DNS_ACCELERATION_STATUSES)}.`,
    }),
  },
  { additionalProperties: false, description: 'A DNS record.' },
);

/** A DNS zone as returned, with all its records. */
export const DnsZone = Type.Object(
  {
    Id: Int64({ description: 'Identifier of the zone.' }),
    Domain: Nullable(Type.String(), { description: 'The domain the zone is authoritative for.' }),
    Records: Type.Array(DnsRecord, { description: 'Every record of the zone.' }),
    DateModified: DateTime({ description: 'When the zone or one of its records last changed.' }),
    DateCreated: DateTime({ description: 'When the zone was added.' }),
    NameserversDetected: Type.Boolean({ description: "True once the domain's delegation points at the platform's name servers." }),
    CustomNameserversEnabled: Type.Boolean({ description: 'True when the zone announces the name servers below instead of the default ones.' }),
    Nameserver1: Nullable(Type.String(), { description: 'First name server announced for the zone.' }),
    Nameserver2: Nullable(Type.String(), { description: 'Second name server announced for the zone.' }),
    SoaEmail: Nullable(Type.String(), { description: "Contact address published in the zone's SOA record." }),
    NameserversNextCheck: DateTime({ description: 'When the delegation will be checked again.' }),
    LoggingEnabled: Type.Boolean({ description: 'True when queries to the zone are logged.' }),
    LoggingIPAnonymizationEnabled: Type.Boolean({ description: 'True when client addresses are anonymized in the query logs.' }),
    LogAnonymizationType: Nullable(LogAnonymizationEnum('How addresses are anonymized in logs:')),
    DnsSecEnabled: Type.Boolean({ description: 'True when the zone is signed with DNSSEC.' }),
    CertificateKeyType: CertificateKeyEnum('Private key algorithm of certificates issued automatically for the zone:'),
  },
  { additionalProperties: false, description: 'A DNS zone.' },
);

/** Body of POST /dnszone. */
export const DnsZoneAddRequest = Type.Object(
  {
    Domain: Type.String({ minLength: 1, description: 'The domain to serve, e.g. `example.com`.' }),
    Records: Type.Optional(Nullable(Type.Array(DnsRecordRequest), { description: 'Records to create together with the zone.' })),
  },
  { additionalProperties: false, description: 'A DNS zone to add.' },
);

/** Body of POST /dnszone/{id}: fields left out or null keep their value. */
export const DnsZoneUpdateRequest = Type.Object(
  {
    CustomNameserversEnabled: Type.Optional(Nullable(Type.Boolean(), { description: 'Announce Nameserver1/Nameserver2 instead of the default name servers.' })),
    Nameserver1: Type.Optional(Nullable(Type.String(), { description: 'First name server to announce.' })),
    Nameserver2: Type.Optional(Nullable(Type.String(), { description: 'Second name server to announce.' })),
    SoaEmail: Type.Optional(Nullable(Type.String(), { description: 'Contact address for the SOA record.' })),
    LoggingEnabled: Type.Optional(Nullable(Type.Boolean(), { description: 'Log queries to the zone.' })),
    LogAnonymizationType: Type.Optional(Nullable(LogAnonymizationEnum('How addresses are anonymized in logs:'))),
    CertificateKeyType: Type.Optional(Nullable(CertificateKeyEnum('Private key algorithm for automatic certificates:'))),
    LoggingIPAnonymizationEnabled: Type.Optional(Nullable(Type.Boolean(), { description: 'Anonymize client addresses in the query logs.' })),
  },
  { additionalProperties: false, description: "Changes to a DNS zone's settings." },
);

/** Path of GET /dnszone/{id}. */
export const DnsZoneIdParams = Type.Object({ id: Int64({ minimum: 1, description: 'Identifier of the DNS zone.' }) });

/** Path of PUT /dnszone/{zoneId}/records. */
export const DnsZoneRecordsParams = Type.Object({
  zoneId: Int64({ minimum: 1, description: 'Identifier of the DNS zone the record belongs to.' }),
});

export type DnsRecordRequestT = Static<typeof DnsRecordRequest>;
export type DnsRecordUpdateRequestT = Static<typeof DnsRecordUpdateRequest>;
export type DnsRecordT = Static<typeof DnsRecord>;
export type DnsZoneT = Static<typeof DnsZone>;
export type DnsZoneAddRequestT = Static<typeof DnsZoneAddRequest>;
export type DnsZoneUpdateRequestT = Static<typeof DnsZoneUpdateRequest>;

/** Answer of POST and DELETE /dnszone/{id}/dnssec: what to publish at the registrar. */
export const DnsSecDsRecord = Type.Object(
  {
    Enabled: Type.Boolean({ description: 'True when the zone is signed.' }),
    DsRecord: Nullable(Type.String(), { description: 'The DS record as a zone file line, for the parent zone; null when signing is off.' }),
    Digest: Nullable(Type.String(), { description: "Digest of the zone's key (upper-case hex)." }),
    DigestType: Nullable(Type.String(), { description: 'Digest algorithm: `SHA256`.' }),
    Algorithm: Int32({ description: 'Key algorithm: 13 (ECDSA P-256 with SHA-256); 0 when signing is off.' }),
    PublicKey: Nullable(Type.String(), { description: 'Public key as DNSKEY carries it (base64).' }),
    KeyTag: Int32({ description: 'Key tag of the key.' }),
    Flags: Int32({ description: 'DNSKEY flags: 257.' }),
    DsConfigured: Type.Boolean({ description: 'True when the parent zone publishes the DS (edgeplane cannot see the parent: false).' }),
  },
  { additionalProperties: false, description: 'The DNSSEC key of a zone, as its parent needs it.' },
);

/** Answer of GET /dnszone/{id}/statistics. */
export const DnsZoneStatistics = Type.Object(
  {
    TotalQueriesServed: Int64({ description: 'Queries the zone answered over the period.' }),
    QueriesServedChart: Nullable(Type.Record(Type.String(), Type.Number({ format: 'double' })), { description: 'Queries answered per day.' }),
    NormalQueriesServedChart: Nullable(Type.Record(Type.String(), Type.Number({ format: 'double' })), {
      description: 'Queries answered from records without smart routing, per day.',
    }),
    SmartQueriesServedChart: Nullable(Type.Record(Type.String(), Type.Number({ format: 'double' })), {
      description: 'Queries answered from records with latency or geolocation routing, per day.',
    }),
    QueriesByTypeChart: Nullable(Type.Record(Type.String(), Int64()), { description: 'Queries answered over the period, by query type (`A`, `AAAA`, …).' }),
  },
  { additionalProperties: false, description: 'What a DNS zone answered.' },
);
