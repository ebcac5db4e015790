/**
 * Every change to a zone (its settings or its records) is a read-modify-write of the one zone
 * document. The repo's versioned update refuses a write based on a stale read (409
 * `concurrent_update`); SQLite serializes transactions and the PostgreSQL store locks the row it
 * reads, so today that never happens, but a store without such locks would turn two clients adding
 * records at once into a spurious 409. Re-running the whole transaction on a fresh read is always
 * safe here, because the edit is a pure function of the zone it is given.
 */
import type { DnsZoneT } from '../../schemas/dns.js';
import type { Store, StoreTx } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import { AppError } from '../errors.js';

/** Tries, including the first, before a lost race is reported to the client as 409. */
export const ZONE_WRITE_ATTEMPTS = 4;

export interface ZoneEdit<T> {
  /** The zone to write; left out when nothing changed, so nothing is written. */
  zone?: DnsZoneT;
  result: T;
}

/** Runs in the writing transaction with the zone before (null when new) and after the write. */
export type ZoneWrittenHook = (tx: StoreTx, accountId: number, before: DnsZoneT | null, after: DnsZoneT) => Promise<void>;

export class ZoneWriter {
  /** Background work that records ask for (acceleration, monitoring) is queued from here. */
  readonly onWritten: ZoneWrittenHook[] = [];

  constructor(
    readonly store: Store,
    readonly zones: DocumentRepo<DnsZoneT>,
  ) {}

  async written(tx: StoreTx, accountId: number, before: DnsZoneT | null, after: DnsZoneT): Promise<void> {
    for (const hook of this.onWritten) await hook(tx, accountId, before, after);
  }

  async edit<T>(accountId: number, zoneId: number, change: (tx: StoreTx, zone: DnsZoneT) => Promise<ZoneEdit<T>>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.store.transaction(async (tx) => {
          const current = await this.zones.get(tx, accountId, zoneId);
          const { zone, result } = await change(tx, current.doc);
          if (zone) {
            await this.zones.update(tx, accountId, current, zone);
            await this.written(tx, accountId, current.doc, zone);
          }
          return result;
        });
      } catch (error) {
        const lostRace = error instanceof AppError && error.key === 'concurrent_update';
        if (!lostRace || attempt >= ZONE_WRITE_ATTEMPTS) throw error;
      }
    }
  }
}
