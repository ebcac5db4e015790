/**
 * The edge's view of the store: which zone a hostname belongs to, and each zone as serving needs it.
 * Both are kept in memory once read, so a request for a known hostname reads nothing from the store;
 * only the first request for a hostname (or for a zone that changed) waits for a read. Nothing is
 * loaded up front: an edge in front of a million zones holds the ones it is asked for (bounded).
 *
 * The store's change feed keeps both right, on every instance:
 * - a change of a zone marks the copy held stale (a counter per zone, from one monotonic clock) and
 *   reads it again at once, so a purge empties the cache of every instance without waiting for a
 *   request; a read that began before the change is never kept;
 * - a change of any hostname claim or DNS zone forgets every hostname's route (they are a few reads
 *   away), and `all` (a reset, an import, a lost feed connection) forgets everything.
 * Each read of a zone reports the copy it replaces to the listeners (the cache evicts what the new
 * copy purged); `all` tells them to forget everything derived from zones (ids may be reused).
 */
import type { StoreChange } from '../../../store/types.js';
import type { StoredPullZone } from '../purge/purge-log.js';
import { type HostRoute, type HostSources, resolveHost } from './resolve-host.js';
import { type RoutedZone, routedZone } from './routed-zone.js';

/** A Map that forgets its oldest entry beyond a size. */
class Bounded<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    this.delete(key);
    super.set(key, value);
    if (this.size > this.max) this.delete(this.keys().next().value as K);
    return this;
  }
}

/** Hostnames whose route is kept (unknown ones included, so a flood of made-up hosts is bounded too). */
const MAX_ROUTES = 100_000;
/** Zones kept; one beyond is read again when next asked for. */
const MAX_ZONES = 20_000;
/**
 * How often routing asks the store whether another process wrote (SQLite's data version, about
 * 10 µs a read). Asked once per event-loop turn before, which under load is every one or two
 * requests: 3-5 µs of every cache hit. A write by another process (the CLI) reaches the edge
 * within this time; the edge's own writes, and other instances' on PostgreSQL, come through the
 * change feed as before.
 */
const LOOK_FOR_OTHER_WRITES_MS = 1;

export type Route = { kind: 'zone'; zone: RoutedZone; forceSsl: boolean } | { kind: 'redirect'; location: string };

export type ZoneReloaded = (id: number, before: RoutedZone | undefined, after: RoutedZone | undefined) => void;

interface Held {
  zone: RoutedZone | undefined;
  /** The clock when the read began: the copy is current while no change of the zone came later. */
  readAt: number;
}

export class EdgeDirectory {
  private readonly routes = new Bounded<string, HostRoute>(MAX_ROUTES);
  private readonly zones = new Bounded<number, Held>(MAX_ZONES);
  private readonly loading = new Map<number, { startedAt: number; promise: Promise<RoutedZone | undefined> }>();
  /** The last change of each zone held or being read, on `clock`. */
  private readonly changedAt = new Map<number, number>();
  private clock = 0;
  private allChangedAt = 0;
  private routesChangedAt = 0;
  /** performance.now() when routing last asked for other processes' writes. */
  private lookedForWritesAt = Number.NEGATIVE_INFINITY;
  readonly onReload: ZoneReloaded[] = [];
  /** Everything may have changed, ids included (a reset reuses them): what was derived from zones must go. */
  readonly onForgetAll: (() => void)[] = [];
  private started = false;

  constructor(
    private readonly sources: HostSources,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Follows the change feed; idempotent (the HTTP and HTTPS listeners share one directory). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.sources.store.changes.subscribe((change) => this.changed(change));
  }

  /**
   * The route of a hostname (lower case, no port), from memory when known; a promise only when the
   * store must be read. Undefined: no zone has the hostname.
   */
  route(host: string): Route | undefined | Promise<Route | undefined> {
    // On SQLite this notices writes by other processes (the CLI): at most once a millisecond.
    const now = performance.now();
    if (now - this.lookedForWritesAt >= LOOK_FOR_OTHER_WRITES_MS) {
      this.lookedForWritesAt = now;
      this.sources.store.changes.generation();
    }
    const known = this.routes.get(host);
    if (known === undefined) return this.resolve(host);
    const found = this.routeTo(host, known);
    if (found instanceof Promise) return found.then((f) => (f === 'stale' ? this.resolve(host) : f));
    return found === 'stale' ? this.resolve(host) : found;
  }

  /** The zone with this id, when it exists; a promise only when the store must be read. */
  zone(id: number): RoutedZone | undefined | Promise<RoutedZone | undefined> {
    const held = this.zones.get(id);
    if (held && held.readAt >= this.changeOf(id)) return held.zone;
    return this.load(id);
  }

  private routeTo(host: string, route: HostRoute): Route | undefined | 'stale' | Promise<Route | undefined | 'stale'> {
    switch (route.kind) {
      case 'unknown':
        return undefined;
      case 'redirect':
        return route;
      case 'zone':
      case 'dns': {
        const zone = this.zone(route.zoneId);
        return zone instanceof Promise ? zone.then((z) => this.zoneRoute(host, route, z)) : this.zoneRoute(host, route, zone);
      }
    }
  }

  private zoneRoute(host: string, route: HostRoute & { zoneId: number }, zone: RoutedZone | undefined): Route | undefined | 'stale' {
    if (route.kind === 'dns') return zone && zone.accountId === route.accountId ? { kind: 'zone', zone, forceSsl: false } : undefined;
    // The hostname left the zone (or the zone went) since the route was found: find it again.
    const forceSsl = zone?.hostnames.get(host);
    return zone && forceSsl !== undefined ? { kind: 'zone', zone, forceSsl } : 'stale';
  }

  private async resolve(host: string): Promise<Route | undefined> {
    const startedAt = this.clock;
    const route = await resolveHost(this.sources, host);
    if (startedAt >= this.routesChangedAt) this.routes.set(host, route);
    const found = await this.routeTo(host, route);
    // A hostname its claim gives to a zone that does not list it: the two disagree for a moment.
    return found === 'stale' ? undefined : found;
  }

  private load(id: number): Promise<RoutedZone | undefined> {
    const running = this.loading.get(id);
    if (running && running.startedAt >= this.changeOf(id)) return running.promise;
    const startedAt = this.clock;
    const promise = this.sources.pullZones.findAnyAccount(this.sources.store, id).then((found) => {
      const zone = found ? routedZone(found.accountId, found.doc as StoredPullZone, this.sources.cdnDomain) : undefined;
      if (startedAt >= this.changeOf(id)) {
        const before = this.zones.get(id)?.zone;
        this.zones.set(id, { zone, readAt: startedAt });
        for (const listener of this.onReload) listener(id, before, zone);
      }
      return zone;
    });
    const done = () => {
      if (this.loading.get(id)?.promise === promise) this.loading.delete(id);
      if (!this.zones.get(id) && !this.loading.has(id)) this.changedAt.delete(id);
    };
    promise.then(done, done);
    this.loading.set(id, { startedAt, promise });
    return promise;
  }

  private changeOf(id: number): number {
    const changed = this.changedAt.get(id);
    return changed === undefined || changed < this.allChangedAt ? this.allChangedAt : changed;
  }

  private changed(change: StoreChange): void {
    const now = ++this.clock;
    if (change.type === 'all') {
      this.allChangedAt = now;
      this.routesChangedAt = now;
      this.routes.clear();
      this.zones.clear();
      for (const listener of this.onForgetAll) listener();
      return;
    }
    if (change.type !== 'doc') return;
    if (change.kind === 'hostname' || change.kind === 'dnsZone') {
      this.routesChangedAt = now;
      this.routes.clear();
    } else if (change.kind === 'pullZone') {
      const id = Number(change.id);
      const held = this.zones.get(id) !== undefined;
      if (!held && !this.loading.has(id)) return;
      this.changedAt.set(id, now);
      // At once rather than on the next request: a purge must leave the cache now.
      if (held) this.load(id).catch(this.onError);
    }
  }
}
