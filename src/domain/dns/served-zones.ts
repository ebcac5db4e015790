/**
 * Keeps the DNS authority's zones equal to the store's, so the DNS plane answers from memory and
 * never queries the store per packet:
 * - at start, every zone is loaded;
 * - a write through this process is applied when its transaction commits, before the write is
 *   acknowledged, so the very next query sees it;
 * - a write by another process or instance arrives through the change feed and the zone is read
 *   again (on PostgreSQL within a round trip); a change of everything (a reset, an import, a lost
 *   feed connection) reloads every zone.
 * Each zone's document version orders the updates: a read that started before a newer write was
 * applied never puts the older zone back.
 */
import type { Store } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import type { Authority, ServedZone } from './serving/types.js';
import type { StoredDnsZone } from './zone-writer.js';

const PAGE = 500;

export interface ServingSettings {
  /** The platform's name servers (configured), announced by zones without custom ones. */
  nameservers: string[];
}

/** What the authority serves of a stored zone. */
export function servedZoneOf(id: number, accountId: number, zone: StoredDnsZone, settings: ServingSettings): ServedZone {
  const custom = [zone.Nameserver1, zone.Nameserver2].filter((n): n is string => !!n).map((n) => n.toLowerCase().replace(/\.$/, ''));
  const served: ServedZone = {
    id,
    accountId,
    domain: (zone.Domain ?? '').toLowerCase(),
    serial: zone.Serial ?? Math.floor(Date.parse(zone.DateModified) / 1000),
    nameservers: zone.CustomNameserversEnabled && custom.length > 0 ? [...new Set(custom)] : settings.nameservers,
    soaEmail: zone.SoaEmail ?? `hostmaster@${zone.Domain ?? ''}`,
    records: zone.Records,
    logging: zone.LoggingEnabled,
    logAnonymization: { enabled: zone.LoggingIPAnonymizationEnabled, type: zone.LogAnonymizationType ?? 0 },
  };
  if (zone.DnsSecEnabled && zone.DnsSecKey) served.dnssec = zone.DnsSecKey;
  return served;
}

export class ServedZones {
  /** The version of each zone the authority holds. */
  private readonly versions = new Map<number, number>();
  private reloadingAll: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly zones: DocumentRepo<StoredDnsZone>,
    private readonly authority: Authority,
    private readonly settings: ServingSettings,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Loads every zone and follows the change feed from then on. */
  async start(): Promise<void> {
    this.store.changes.subscribe((change) => {
      if (change.type === 'all') void this.reloadAll().catch(this.onError);
      else if (change.type === 'doc' && change.kind === 'dnsZone') void this.reload(Number(change.id)).catch(this.onError);
    });
    await this.reloadAll();
  }

  /** A zone as committed by this process (ZoneWriter calls it on commit). */
  committed(id: number, accountId: number, zone: StoredDnsZone, version: number): void {
    const held = this.versions.get(id);
    if (held !== undefined && held > version) return;
    this.versions.set(id, version);
    this.authority.setZone(servedZoneOf(id, accountId, zone, this.settings));
  }

  /** A zone deleted by this process (on commit). */
  deleted(id: number): void {
    this.versions.set(id, Number.POSITIVE_INFINITY);
    this.authority.removeZone(id);
  }

  private async reload(id: number): Promise<void> {
    const found = await this.zones.findAnyAccount(this.store, id);
    if (!found) {
      this.versions.delete(id);
      this.authority.removeZone(id);
      return;
    }
    // A zone deleted here stays deleted (ids are not reused but after a reset, which reloads all).
    this.committed(id, found.accountId, found.doc, found.version);
  }

  private reloadAll(): Promise<void> {
    this.reloadingAll ??= (async () => {
      try {
        // Everything may have changed, ids included (a reset): versions start over. A write
        // committed here while the pages are read still wins over the older page.
        const before = new Set(this.versions.keys());
        this.versions.clear();
        const seen = new Set<number>();
        for (let offset = 0; ; offset += PAGE) {
          const page = await this.zones.scan(this.store, offset, PAGE);
          for (const zone of page) {
            const id = Number(zone.id);
            seen.add(id);
            this.committed(id, zone.accountId, zone.doc, zone.version);
          }
          if (page.length < PAGE) break;
        }
        for (const id of before) if (!seen.has(id) && !this.versions.has(id)) this.authority.removeZone(id);
      } finally {
        this.reloadingAll = undefined;
      }
    })();
    return this.reloadingAll;
  }
}
