/**
 * DNS zones and their records.
 *
 * A zone is a document (kind 'dnsZone') holding its settings; each of its records is a row of its
 * own (DnsRecordRows), kept in the zone's order. Every write of a record also rewrites the zone's
 * document in the same transaction (its serial, its version, usually its DateModified), so the
 * records, the zone and the uniqueness of its domain can never disagree, and a write costs the
 * same however many records the zone holds. Record ids come from their own sequence
 * ('dnsRecord'), so they stay unique platform-wide.
 */
import type { Config } from '../../config.js';
import type { DnsRecordRequestT, DnsRecordT, DnsZoneAddRequestT, DnsZoneT, DnsZoneUpdateRequestT } from '../../schemas/dns.js';
import type { PagedT } from '../../schemas/paging.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import { newRecord } from './record-model.js';
import { DnsRecords, recordsOf } from './records.js';
import { normalizeDomain, recordProblems } from './validate.js';
import { writeZoneFile } from './zone-export.js';
import { applyZoneSettings, configuredNameservers, platformNameservers } from './zone-settings.js';
import { linkProblems, throwIfAny } from './record-checks.js';
import { generateZoneSigningKey } from './serving/dnssec.js';
import { type DnsSecDsRecordModel, dsRecordModel } from './serving/ds-model.js';
import { DNS_ZONE_CREDENTIALS, nextSerial, type StoredDnsZone, ZoneWriter } from './zone-writer.js';

/** The platform checks a new zone's delegation shortly after it is added. */
const NAMESERVER_CHECK_DELAY_MS = 5 * 60 * 1000;

export interface ZoneListQuery {
  page: number;
  perPage: number;
  /** Case-insensitive part of the domain. */
  search?: string | undefined;
  /** 0 = Full; 1 = Lite: the zones without their records, for listing many zones cheaply. */
  view: 0 | 1;
}

export class DnsZoneService {
  readonly zones: DocumentRepo<StoredDnsZone>;
  readonly writer: ZoneWriter;
  readonly records: DnsRecords;

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly clock: Clock,
    private readonly config: Pick<Config, 'cdnDomain' | 'nameservers'>,
  ) {
    // The indexed name is the domain: a domain can be served by one zone on the whole platform.
    this.zones = new DocumentRepo<StoredDnsZone>('dnsZone', 'DNS zone', secrets, DNS_ZONE_CREDENTIALS, (zone) => ({ name: zone.Domain }), 'Domain');
    this.writer = new ZoneWriter(store, this.zones, clock);
    this.records = new DnsRecords(this.writer, clock);
  }

  async create(principal: Principal, input: DnsZoneAddRequestT): Promise<DnsZoneT> {
    const domain = checkedDomain(input.Domain, 'Domain');
    const requests = input.Records ?? [];
    throwIfAny(requests.flatMap((r, i) => recordProblems(r, domain, `Records[${i}].`)));

    return this.store.transaction(async (tx) => {
      // Checked first for a clear answer; the unique index still settles a race between two adds.
      if (await this.zones.nameTaken(tx, domain)) throw errors.nameTaken('Domain', 'DNS zone', domain);
      const links = await Promise.all(requests.map((r: DnsRecordRequestT, i) => linkProblems(tx, principal.accountId, r, `Records[${i}].`)));
      throwIfAny(links.flat());
      const now = this.clock();
      const zone: StoredDnsZone = {
        ...newZone(await tx.nextId('dnsZone'), domain, now, this.config.cdnDomain, configuredNameservers(this.config)),
        Serial: nextSerial(undefined, now),
      };
      const ids = await tx.nextIds('dnsRecord', requests.length);
      const records = requests.map((request, i) => newRecord(ids[i]!, request));
      await this.writer.insert(tx, principal.accountId, zone, records);
      return { ...zone, Records: records };
    }, principal.durability);
  }

  async get(principal: Principal, id: number): Promise<DnsZoneT> {
    const { doc: zone } = await this.zones.get(this.store, principal.accountId, id);
    return { ...zone, Records: await recordsOf(this.store, zone.Id) };
  }

  /** In the order the zones were added, so pages stay stable while zones are added. */
  async list(principal: Principal, query: ZoneListQuery): Promise<PagedT<DnsZoneT>> {
    const offset = (query.page - 1) * query.perPage;
    const found = await this.zones.list(this.store, principal.accountId, { offset, limit: query.perPage, search: query.search || undefined });
    const records = query.view === 1 ? new Map<number, DnsRecordT[]>() : await this.store.dnsRecords.ofZones<DnsRecordT>(found.items.map((z) => z.Id));
    const items = found.items.map((zone) => ({ ...zone, Records: records.get(zone.Id) ?? [] }));
    return { Items: items, CurrentPage: query.page, TotalItems: found.total, HasMoreItems: offset + items.length < found.total };
  }

  async update(principal: Principal, id: number, input: DnsZoneUpdateRequestT): Promise<DnsZoneT> {
    return this.writer.edit(principal, id, async (tx, zone) => {
      const settings = applyZoneSettings(zone, input, platformNameservers(configuredNameservers(this.config)));
      const changed = { ...settings, DateModified: this.clock().toISOString() };
      return { zone: changed, result: { ...changed, Records: await recordsOf(tx, zone.Id) } };
    });
  }

  /** Signs the zone (with its key, made now if it has none) and answers what the parent publishes. */
  async enableDnssec(principal: Principal, id: number): Promise<DnsSecDsRecordModel> {
    return this.writer.edit(principal, id, async (_tx, zone) => {
      const key = zone.DnsSecKey ?? generateZoneSigningKey();
      const model = dsRecordModel(zone.Domain ?? '', key);
      if (zone.DnsSecEnabled && zone.DnsSecKey) return { result: model };
      return { zone: { ...zone, DnsSecEnabled: true, DnsSecKey: key, DateModified: this.clock().toISOString() }, result: model };
    });
  }

  /** Stops signing; the key goes too, so signing again starts with a new key (and a new DS). */
  async disableDnssec(principal: Principal, id: number): Promise<DnsSecDsRecordModel> {
    return this.writer.edit(principal, id, async (_tx, zone) => {
      const model = dsRecordModel(zone.Domain ?? '', undefined);
      if (!zone.DnsSecEnabled && !zone.DnsSecKey) return { result: model };
      const { DnsSecKey: _key, ...rest } = zone;
      return { zone: { ...rest, DnsSecEnabled: false, DateModified: this.clock().toISOString() }, result: model };
    });
  }

  /** The zone and its records go together; the domain becomes free for any account to add. */
  async delete(principal: Principal, id: number): Promise<void> {
    await this.store.transaction((tx) => this.writer.delete(tx, principal.accountId, id), principal.durability);
  }

  /** Domains are platform-wide, so a domain another account serves is not available either. */
  async isAvailable(name: string | null | undefined): Promise<boolean> {
    return !(await this.zones.nameTaken(this.store, checkedDomain(name ?? '', 'Name')));
  }

  async exportZoneFile(principal: Principal, id: number): Promise<{ domain: string; text: string }> {
    const { doc: zone } = await this.zones.get(this.store, principal.accountId, id);
    return { domain: zone.Domain ?? '', text: writeZoneFile(zone, await recordsOf(this.store, zone.Id)) };
  }

  /** Registered as a pull zone deletion hook (see domain/services.ts). */
  unlinkPullZone(tx: StoreTx, accountId: number, pullZoneId: number): Promise<void> {
    return this.records.unlinkPullZone(tx, accountId, pullZoneId);
  }
}

function checkedDomain(raw: string, field: string): string {
  const domain = normalizeDomain(raw);
  if (domain === undefined) throw errors.validation(field, `The ${field} field must be a domain name such as example.com.`);
  return domain;
}

/**
 * A new, empty zone. It announces the platform's name servers (configured) and an SOA contact under
 * the platform's configured domain (`hostmaster@<cdnDomain>`), so no host name is hard-coded.
 */
export function newZone(id: number, domain: string, now: Date, platformDomain: string, nameservers: string[]): StoredDnsZone {
  return {
    Id: id,
    Domain: domain,
    DateModified: now.toISOString(),
    DateCreated: now.toISOString(),
    NameserversDetected: false,
    CustomNameserversEnabled: false,
    ...platformNameservers(nameservers),
    SoaEmail: `hostmaster@${platformDomain}`,
    NameserversNextCheck: new Date(now.getTime() + NAMESERVER_CHECK_DELAY_MS).toISOString(),
    LoggingEnabled: false,
    LoggingIPAnonymizationEnabled: true,
    LogAnonymizationType: 0,
    DnsSecEnabled: false,
    CertificateKeyType: 0,
  };
}
