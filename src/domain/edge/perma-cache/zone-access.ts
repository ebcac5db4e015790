/**
 * The storage zones pull zones keep their perma-cache in, as the edge writes to them: a zone of the
 * pull zone's own account, still live. Looked up once and remembered; the store's change feed
 * drops a zone the moment it changes (its deletion included), here or on another instance. A pull
 * zone whose perma-cache zone is gone or is another account's serves on without a perma-cache,
 * and says so in the log once.
 */
import type { Store } from '../../../store/types.js';
import { BoundedMap } from '../../bounded-map.js';
import type { DocumentRepo } from '../../documents.js';
import type { ZoneAccess } from '../../files/types.js';
import { zoneOf } from '../../files/zones-by-name.js';
import type { StoredStorageZone } from '../../storage-zones/service.js';

const MAX_ZONES = 10_000;

/** A zone that was looked up and is not there for this account. */
const MISSING = null;

export class PermaCacheZones {
  /** By `<account>:<storage zone>`: the access the edge writes with, or MISSING. */
  private readonly known = new BoundedMap<string, ZoneAccess | typeof MISSING>(MAX_ZONES);
  /** Pull zone and storage zone pairs already reported as off. */
  private readonly reported = new BoundedMap<string, true>(MAX_ZONES);

  constructor(
    private readonly store: Store,
    private readonly zones: DocumentRepo<StoredStorageZone>,
    private readonly logError: (error: unknown) => void,
  ) {
    store.changes.subscribe((change) => {
      if (change.type === 'all') this.known.clear();
      else if (change.type === 'doc' && change.kind === 'storageZone') this.known.delete(`${change.accountId}:${change.id}`);
    });
  }

  /** The storage zone `storageZoneId` of `accountId`, to read and write; undefined (reported once per pull zone) when it is not there. */
  async access(accountId: number, storageZoneId: number, pullZoneId: number): Promise<ZoneAccess | undefined> {
    const key = `${accountId}:${storageZoneId}`;
    let found = this.known.get(key);
    if (found === undefined) {
      const generation = this.store.changes.generation();
      found = await this.lookUp(accountId, storageZoneId);
      // Remembered only when no write raced the read, so a deletion is never missed.
      if (this.store.changes.generation() === generation) this.known.set(key, found);
    }
    if (found === MISSING) this.reportOff(pullZoneId, storageZoneId);
    return found ?? undefined;
  }

  /** Forgets what is known of a zone (a write found it gone). */
  forget(accountId: number, storageZoneId: number): void {
    this.known.delete(`${accountId}:${storageZoneId}`);
  }

  private async lookUp(accountId: number, storageZoneId: number): Promise<ZoneAccess | typeof MISSING> {
    const zone = await this.zones.find(this.store, accountId, storageZoneId);
    if (!zone || zone.doc.Deleted) return MISSING;
    return { ...zoneOf(zone.id, accountId, zone.doc), canWrite: true };
  }

  private reportOff(pullZoneId: number, storageZoneId: number): void {
    const pair = `${pullZoneId}:${storageZoneId}`;
    if (this.reported.get(pair)) return;
    this.reported.set(pair, true);
    this.logError(new Error(`Pull zone ${pullZoneId} serves without its perma-cache: storage zone ${storageZoneId} is deleted or not of its account.`));
  }
}
