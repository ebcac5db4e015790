/**
 * DNS record scans: a look at what a domain already publishes, asked of the upstream resolver, so
 * its records can be brought into a zone (`POST /dnszone/records/scan`,
 * `GET /dnszone/{zoneId}/records/scan`).
 */
import { Type, type Static } from 'typebox';
import { DateTime, Int32, Int64, IntEnum, Nullable } from './common.js';

export const DNS_SCAN_STATUSES = ['Pending', 'InProgress', 'Completed', 'Failed'] as const;
export type DnsScanStatus = 0 | 1 | 2 | 3;

/** The discovered types and their numbers; the gaps are the platform's own record types (Redirect, PullZone…), which no other server publishes. */
export const DISCOVERED_RECORD_TYPES = {
  A: 0,
  AAAA: 1,
  CNAME: 2,
  TXT: 3,
  MX: 4,
  SRV: 8,
  CAA: 9,
  PTR: 10,
  NS: 12,
  SVCB: 13,
  HTTPS: 14,
  TLSA: 15,
  SOA: 16,
} as const;
export type DiscoveredRecordTypeName = keyof typeof DISCOVERED_RECORD_TYPES;

const typeDoc = Object.entries(DISCOVERED_RECORD_TYPES)
  .map(([name, n]) => `${n} = ${name}`)
  .join(', ');

const ScanStatus = IntEnum([0, 1, 2, 3] as DnsScanStatus[], {
  description: `State of the scan: ${DNS_SCAN_STATUSES.map((s, i) => `${i} = ${s}`).join(', ')}.`,
});

const JobId = Type.String({ format: 'uuid', description: 'Identifier of the scan.' });

/** Body of POST /dnszone/records/scan. */
export const DnsRecordScanRequest = Type.Object(
  {
    ZoneId: Type.Optional(
      Nullable(Int64({ minimum: 1 }), { description: 'A DNS zone of the account: its domain is scanned. Give this or `Domain`, not both.' }),
    ),
    Domain: Type.Optional(
      Nullable(Type.String(), { description: 'A domain to scan, whether or not the account has a zone for it yet. Give this or `ZoneId`, not both.' }),
    ),
  },
  { additionalProperties: false, description: 'What to scan.' },
);
export type DnsRecordScanRequestT = Static<typeof DnsRecordScanRequest>;

/** Answer of POST /dnszone/records/scan: the scan has been queued. */
export const DnsRecordScanTriggered = Type.Object(
  { JobId, Status: ScanStatus },
  { additionalProperties: false, description: 'The scan just started; read its result with `GET /dnszone/{zoneId}/records/scan`.' },
);

/** One record the scan found. */
export const DiscoveredDnsRecord = Type.Object(
  {
    Name: Nullable(Type.String(), { description: 'Name relative to the domain; `@` for the domain itself.' }),
    Type: Nullable(IntEnum(Object.values(DISCOVERED_RECORD_TYPES), { description: `Kind of record: ${typeDoc}.` })),
    Ttl: Nullable(Int32({ minimum: 0, description: 'TTL the resolver gave, in seconds (a caching resolver gives what is left of it).' })),
    Value: Nullable(Type.String(), {
      description:
        'Record data: the address (A, AAAA), the target name without its final dot (CNAME, MX, NS, SRV), the text with its strings joined (TXT), or `flags tag "value"` (CAA).',
    }),
    Priority: Nullable(Int32({ minimum: 0, maximum: 65535, description: 'Preference (MX) or priority (SRV); null for other types.' })),
    Weight: Nullable(Int32({ minimum: 0, maximum: 65535, description: 'Weight (SRV); null for other types.' })),
    Port: Nullable(Int32({ minimum: 0, maximum: 65535, description: 'Port (SRV); null for other types.' })),
    IsProxied: Type.Boolean({
      description:
        "True when the record already leads to this platform's edge: an address of `EDGEPLANE_EDGE_ADDRESSES`, or a CNAME under `EDGEPLANE_CDN_DOMAIN`.",
    }),
  },
  { additionalProperties: false, description: 'A record found by a scan.' },
);
export type DiscoveredDnsRecordT = Static<typeof DiscoveredDnsRecord>;

/** A scan as stored, and the answer of GET /dnszone/{zoneId}/records/scan. */
export const DnsRecordScan = Type.Object(
  {
    JobId,
    ZoneId: Nullable(Int64(), { description: 'The zone the scan was asked for; null when it was asked for a domain.' }),
    Domain: Nullable(Type.String(), { description: 'The domain scanned, lower case.' }),
    AccountId: Nullable(Type.String(), { description: 'The account that asked for the scan (its user id).' }),
    Status: ScanStatus,
    CreatedAt: DateTime({ description: 'When the scan was asked for.' }),
    CompletedAt: Nullable(DateTime(), { description: 'When it completed or failed; null before.' }),
    Records: Nullable(Type.Array(DiscoveredDnsRecord), { description: 'What was found, once completed; null before, and when it failed.' }),
    Error: Nullable(Type.String(), { description: 'Why the scan failed; null otherwise.' }),
  },
  { additionalProperties: false, description: 'The latest record scan of a domain.' },
);
export type DnsRecordScanT = Static<typeof DnsRecordScan>;

export const DnsRecordScanParams = Type.Object({ zoneId: Int64({ minimum: 1, description: 'Identifier of the DNS zone.' }) });
