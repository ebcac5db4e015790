/**
 * Keeps the DNS authority's zones equal to the store's, so the DNS plane answers from memory and
 * never queries the store per packet:
 * - at start, every zone is loaded;
 * - a write through this process is applied when its transaction commits, before the write is
 *   acknowledged, so the very next query sees it. Only what the write changed is applied: the
 *   zone's settings and the records it added, changed or removed, so a write to a zone of 10,000
 *   records costs what it costs in a small one (the authority edits the zone's index by the same
 *   changes when a query first needs it, once for any number of writes in between);
 * - a write by another process or instance arrives through the change feed and the zone is read
 *   again (on PostgreSQL within a round trip); a change of everything (a reset, an import, a lost
 *   feed connection) reloads every zone.
 * Each zone's document version orders the updates: every write of a zone or of one of its records
 * moves it by one. A write applied here is exactly the next version of the zone held, or the zone
 * is read again; a read that started before a newer write was applied never puts the older zone
 * back. A read takes the zone's document first, then its records, so the records are never older
 * than the version they are held at; applying a write's changes again is harmless.
 */
import type { DnsRecordT } from '../../schemas/dns.js';
import type { Store } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import type { Authority, RecordChanges, ServedZone, SoaTimers } from './serving/types.js';
import type { StoredDnsZone } from './zone-writer.js';

const PAGE = 500;

export interface ServingSettings {
  /** The platform's name servers (configured), announced by zones without custom ones. */
  nameservers: string[];
  /** SOA refresh, retry and expire (configured); defaults in serving/soa.ts when left out. */
  soaTimers?: SoaTimers;
}

/** A zone as held here: its document, and its records by id in the zone's order. */
interface Held {
  version: number;
  accountId: number;
  zone: StoredDnsZone;
  records: Map<number, DnsRecordT>;
}

/** What the authority serves of a stored zone; `records` is read when the authority indexes it. */
export function servedZoneOf(id: number, accountId: number, zone: StoredDnsZone, settings: ServingSettings, records: () => DnsRecordT[]): ServedZone {
  const custom = [zone.Nameserver1, zone.Nameserver2].filter((n): n is string => !!n).map((n) => n.toLowerCase().replace(/\.$/, ''));
  let list: DnsRecordT[] | undefined;
  const served: ServedZone = {
    id,
    accountId,
    domain: (zone.Domain ?? '').toLowerCase(),
    serial: zone.Serial ?? Math.floor(Date.parse(zone.DateModified) / 1000),
    nameservers: zone.CustomNameserversEnabled && custom.length > 0 ? [...new Set(custom)] : settings.nameservers,
    soaEmail: zone.SoaEmail ?? `hostmaster@${zone.Domain ?? ''}`,
    soaTimers: settings.soaTimers,
    get records() {
      list ??= records();
      return list;
    },
    logging: zone.LoggingEnabled,
    logAnonymization: { enabled: zone.LoggingIPAnonymizationEnabled, type: zone.LogAnonymizationType ?? 0 },
  };
  if (zone.DnsSecEnabled && zone.DnsSecKey) served.dnssec = zone.DnsSecKey;
  return served;
}

export class ServedZones {
  private readonly held = new Map<number, Held>();
  /** Zones deleted by this process: a read that started before the delete must not bring them back. */
  private readonly deletedHere = new Set<number>();
  private reloadingAll: Promise<void> | undefined;
  /** Zones being read again, and whether an announcement arrived meanwhile (see reload). */
  private readonly reloading = new Map<number, { again: boolean; done: Promise<void> }>();
  private started: Promise<void> | undefined;
  private following = false;

  constructor(
    private readonly store: Store,
    private readonly zones: DocumentRepo<StoredDnsZone>,
    private readonly authority: Authority,
    private readonly settings: ServingSettings,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /**
   * Loads every zone and follows the change feed from then on. The DNS plane and the certificate
   * checks both call it: whichever comes first loads the zones, once, so the feed is followed once;
   * a load that failed is tried again by the next call.
   */
  start(): Promise<void> {
    const started = (this.started ??= this.load());
    started.catch(() => {
      if (this.started === started) this.started = undefined;
    });
    return started;
  }

  private async load(): Promise<void> {
    if (!this.following) {
      this.following = true;
      this.store.changes.subscribe((change) => {
        if (change.type === 'all') void this.reloadAll().catch(this.onError);
        else if (change.type === 'doc' && change.kind === 'dnsZone') void this.reload(Number(change.id)).catch(this.onError);
      });
    }
    await this.reloadAll();
  }

  /** A write committed by this process (ZoneWriter tells it on commit): version 1 is a new zone. */
  committed(id: number, accountId: number, zone: StoredDnsZone, version: number, changes: RecordChanges): void {
    if (version === 1) {
      this.deletedHere.delete(id);
      this.hold(id, { version, accountId, zone, records: byId(changes.added) });
      return;
    }
    const held = this.held.get(id);
    if (held && held.version >= version) return;
    if (!held || held.version !== version - 1) {
      // A write in between was not seen here (another instance's, its announcement still on the way).
      void this.reload(id).catch(this.onError);
      return;
    }
    for (const r of changes.removed) held.records.delete(r.Id);
    for (const { after } of changes.changed) held.records.set(after.Id, after);
    for (const r of changes.added) held.records.set(r.Id, r);
    this.hold(id, { ...held, version, accountId, zone }, changes);
  }

  /** A zone deleted by this process (on commit). */
  deleted(id: number): void {
    this.deletedHere.add(id);
    this.held.delete(id);
    this.authority.removeZone(id);
  }

  /** `changes`: all that changed in the records since the version held before. */
  private hold(id: number, held: Held, changes?: RecordChanges): void {
    this.held.set(id, held);
    const records = held.records;
    this.authority.setZone(
      servedZoneOf(id, held.accountId, held.zone, this.settings, () => [...records.values()]),
      changes,
    );
  }

  /** Takes a version read from the store unless a newer one is held (or the zone was deleted here since). */
  private loaded(id: number, accountId: number, zone: StoredDnsZone, version: number, records: DnsRecordT[]): void {
    if (this.deletedHere.has(id)) return;
    const held = this.held.get(id);
    if (held && held.version >= version) return;
    this.hold(id, { version, accountId, zone, records: byId(records) });
  }

  /**
   * Reads the zone again, once at a time: announcements that arrive while it is being read make one
   * more read when it ends, however many they are. Another instance writing a large zone many
   * times a second then costs this one a read per read's duration, not one per write.
   */
  private reload(id: number): Promise<void> {
    const running = this.reloading.get(id);
    if (running) {
      running.again = true;
      return running.done;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          try {
            await this.readZone(id);
          } catch (error) {
            // A failed read still leaves the announcements that came meanwhile to be read.
            if (!state.again) throw error;
            this.onError(error);
          }
        } while (state.again);
      } finally {
        this.reloading.delete(id);
      }
    })();
    this.reloading.set(id, state);
    return state.done;
  }

  private async readZone(id: number): Promise<void> {
    const found = await this.zones.findAnyAccount(this.store, id);
    if (!found) {
      this.held.delete(id);
      this.authority.removeZone(id);
      return;
    }
    // Most often the change was this process's own write, applied already: no need to read the records.
    const held = this.held.get(id);
    if (held && held.version >= found.version) return;
    const records = (await this.store.dnsRecords.ofZones<DnsRecordT>([id])).get(id) ?? [];
    this.loaded(id, found.accountId, found.doc, found.version, records);
  }

  private reloadAll(): Promise<void> {
    this.reloadingAll ??= (async () => {
      try {
        // Everything may have changed, ids included (a reset): versions start over. A write
        // committed here while the pages are read still wins over the older page.
        const before = new Set(this.held.keys());
        this.held.clear();
        this.deletedHere.clear();
        const seen = new Set<number>();
        for (let offset = 0; ; offset += PAGE) {
          const page = await this.zones.scan(this.store, offset, PAGE);
          const records = await this.store.dnsRecords.ofZones<DnsRecordT>(page.map((z) => Number(z.id)));
          for (const zone of page) {
            const id = Number(zone.id);
            seen.add(id);
            this.loaded(id, zone.accountId, zone.doc, zone.version, records.get(id) ?? []);
          }
          if (page.length < PAGE) break;
        }
        for (const id of before) if (!seen.has(id) && !this.held.has(id)) this.authority.removeZone(id);
      } finally {
        this.reloadingAll = undefined;
      }
    })();
    return this.reloadingAll;
  }
}

const byId = (records: readonly DnsRecordT[]) => new Map(records.map((r) => [r.Id, r]));
