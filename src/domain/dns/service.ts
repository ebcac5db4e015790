/**
 * DNS zones and their records.
 *
 * A zone and all of its records are one document (kind 'dnsZone'); there are no 'dnsRecord'
 * documents. Adding a record rewrites the zone in one versioned write, so the records, the zone's
 * DateModified and the uniqueness of the zone's domain can never disagree, and reading a zone with
 * its records is one lookup. Zones hold tens to hundreds of records, which keeps the rewrite cheap;
 * record ids still come from their own sequence ('dnsRecord') so they stay unique platform-wide.
 */
import type { Config } from '../../config.js';
import type { DnsRecordRequestT, DnsRecordT, DnsZoneAddRequestT, DnsZoneT } from '../../http/schemas/dns.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { AppError, errors, type FieldProblem } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import { normalizeDomain, normalizeRecordName, recordProblems } from './validate.js';

/** TTL of a record added without one, in seconds. */
export const DEFAULT_TTL = 300;
/** The platform checks a new zone's delegation shortly after it is added. */
const NAMESERVER_CHECK_DELAY_MS = 5 * 60 * 1000;

export class DnsZoneService {
  private readonly zones: DocumentRepo<DnsZoneT>;

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly clock: Clock,
    private readonly config: Pick<Config, 'cdnDomain'>,
  ) {
    // The indexed name is the domain: a domain can be served by one zone on the whole platform.
    this.zones = new DocumentRepo<DnsZoneT>('dnsZone', 'DNS zone', secrets, [], (zone) => ({ name: zone.Domain }), 'Domain');
  }

  async create(principal: Principal, input: DnsZoneAddRequestT): Promise<DnsZoneT> {
    const domain = normalizeDomain(input.Domain);
    if (domain === undefined) throw errors.validation('Domain', 'The Domain field must be a domain name such as example.com.');
    const requests = input.Records ?? [];
    throwIfAny(requests.flatMap((r, i) => recordProblems(r, domain, `Records[${i}].`)));

    return this.store.transaction(async (tx) => {
      // Checked first for a clear answer; the unique index still settles a race between two adds.
      if (await this.zones.nameTaken(tx, domain)) throw errors.nameTaken('Domain', 'DNS zone', domain);
      const links = await Promise.all(requests.map((r, i) => this.linkProblems(tx, principal.accountId, r, `Records[${i}].`)));
      throwIfAny(links.flat());
      const now = this.clock();
      const zone = newZone(await tx.nextId('dnsZone'), domain, now, this.config.cdnDomain);
      for (const request of requests) zone.Records.push(newRecord(await tx.nextId('dnsRecord'), request));
      await this.zones.insert(tx, principal.accountId, zone.Id, zone);
      return zone;
    });
  }

  async get(principal: Principal, id: number): Promise<DnsZoneT> {
    return (await this.zones.get(this.store, principal.accountId, id)).doc;
  }

  async addRecord(principal: Principal, zoneId: number, input: DnsRecordRequestT): Promise<DnsRecordT> {
    return this.store.transaction(async (tx) => {
      const current = await this.zones.get(tx, principal.accountId, zoneId);
      const zone = current.doc;
      throwIfAny(recordProblems(input, zone.Domain ?? ''));
      throwIfAny(await this.linkProblems(tx, principal.accountId, input));
      const record = newRecord(await tx.nextId('dnsRecord'), input);
      const updated: DnsZoneT = { ...zone, Records: [...zone.Records, record], DateModified: this.clock().toISOString() };
      await this.zones.update(tx, principal.accountId, current, updated);
      return record;
    });
  }

  /** Resources a record points at must exist in the caller's account. */
  private async linkProblems(tx: StoreTx, accountId: number, record: DnsRecordRequestT, prefix = ''): Promise<FieldProblem[]> {
    if (record.Type === 7 && record.PullZoneId != null) {
      const pullZone = await tx.docs.get('pullZone', accountId, String(record.PullZoneId));
      if (!pullZone) return [{ field: `${prefix}PullZoneId`, message: `The pull zone ${record.PullZoneId} does not exist.` }];
    }
    // Script records (type 11): the platform has no scripts yet, so any positive ScriptId is
    // accepted and kept; once scripts exist, check it here the way pull zones are checked.
    return [];
  }
}

function throwIfAny(problems: FieldProblem[]): void {
  if (problems.length === 0) return;
  const detail = problems.length === 1 ? problems[0]!.message : 'One or more validation errors occurred.';
  throw new AppError('validation', detail, 'validation_error', problems);
}

/**
 * A new, empty zone. Its name servers and SOA contact live under the platform's configured domain
 * (`ns1.<cdnDomain>`, `ns2.<cdnDomain>`, `hostmaster@<cdnDomain>`), so no host name is hard-coded.
 */
export function newZone(id: number, domain: string, now: Date, platformDomain: string): DnsZoneT {
  return {
    Id: id,
    Domain: domain,
    Records: [],
    DateModified: now.toISOString(),
    DateCreated: now.toISOString(),
    NameserversDetected: false,
    CustomNameserversEnabled: false,
    Nameserver1: `ns1.${platformDomain}`,
    Nameserver2: `ns2.${platformDomain}`,
    SoaEmail: `hostmaster@${platformDomain}`,
    NameserversNextCheck: new Date(now.getTime() + NAMESERVER_CHECK_DELAY_MS).toISOString(),
    LoggingEnabled: false,
    LoggingIPAnonymizationEnabled: true,
    LogAnonymizationType: 0,
    DnsSecEnabled: false,
    CertificateKeyType: 0,
  };
}

/** A record as stored and returned, from a request that `recordProblems` accepted. */
export function newRecord(id: number, r: DnsRecordRequestT): DnsRecordT {
  const type = r.Type ?? 0;
  const hasCoordinates = r.GeolocationLatitude != null || r.GeolocationLongitude != null;
  const latitude = r.GeolocationLatitude ?? 0;
  const longitude = r.GeolocationLongitude ?? 0;
  const accelerated = r.Accelerated ?? false;
  return {
    Id: id,
    Type: type,
    Ttl: r.Ttl ?? DEFAULT_TTL,
    Value: r.Value ?? null,
    Name: normalizeRecordName(r.Name),
    Weight: r.Weight ?? 0,
    Priority: r.Priority ?? 0,
    Port: r.Port ?? 0,
    Flags: r.Flags ?? 0,
    // CAA tags match case-insensitively (RFC 8659); they are kept in their canonical lower case.
    Tag: type === 9 ? (r.Tag?.toLowerCase() ?? null) : (r.Tag ?? null),
    Accelerated: accelerated,
    AcceleratedPullZoneId: 0,
    // The linked resource's id, as text: what clients show for pull zone and script records.
    LinkName: type === 7 ? String(r.PullZoneId) : type === 11 ? String(r.ScriptId) : null,
    // No address database is consulted, so where an address sits is unknown.
    IPGeoLocationInfo: null,
    // Coordinates are echoed; naming the country and city would need a geocoder.
    GeolocationInfo: hasCoordinates ? { Country: null, City: null, Latitude: latitude, Longitude: longitude } : null,
    MonitorStatus: 0,
    MonitorType: r.MonitorType ?? 0,
    GeolocationLatitude: latitude,
    GeolocationLongitude: longitude,
    EnviromentalVariables: r.EnviromentalVariables ?? [],
    LatencyZone: r.LatencyZone ?? null,
    SmartRoutingType: r.SmartRoutingType ?? 0,
    Disabled: r.Disabled ?? false,
    Comment: r.Comment ?? null,
    AutoSslIssuance: r.AutoSslIssuance ?? false,
    // Acceleration is requested but never provisioned here, so it stays Pending.
    AccelerationStatus: accelerated ? 1 : 0,
  };
}
