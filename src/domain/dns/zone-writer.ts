/**
 * Every change to a zone (its settings or its records) is a read-modify-write of the one zone
 * document. The repo's versioned update refuses a write based on a stale read (409
 * `concurrent_update`); SQLite serializes transactions and the PostgreSQL store locks the row it
 * reads, so today that never happens, but a store without such locks would turn two clients adding
 * records at once into a spurious 409. Re-running the whole transaction on a fresh read is always
 * safe here, because the edit is a pure function of the zone it is given.
 */
import type { DnsZoneT } from '../../schemas/dns.js';
import type { ZoneSigningKey } from './serving/types.js';
import type { Store, StoredDoc, StoreTx } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import { AppError } from '../errors.js';

/**
 * A zone as stored: what the API shows, plus what only serving needs (left out of every answer by
 * the response schema). `Serial` grows with every write (the SOA serial); `DnsSecKey` is the
 * signing key, its private part sealed at rest like every credential.
 */
export type StoredDnsZone = DnsZoneT & { Serial?: number; DnsSecKey?: ZoneSigningKey };

/** The credential paths of a stored zone, sealed at rest. */
export const DNS_ZONE_CREDENTIALS = ['DnsSecKey.privateKeyPem'];

/**
 * The SOA serial after a change at `now`: seconds since 1970 (so it reads as a date, and survives a
 * lost counter), but always above the last one, even for several changes within a second.
 */
export function nextSerial(previous: number | undefined, now: Date): number {
  return Math.max((previous ?? 0) + 1, Math.floor(now.getTime() / 1000)) % 2 ** 32;
}

/** Tries, including the first, before a lost race is reported to the client as 409. */
export const ZONE_WRITE_ATTEMPTS = 4;

export interface ZoneEdit<T> {
  /** The zone to write; left out when nothing changed, so nothing is written. */
  zone?: StoredDnsZone;
  result: T;
}

/** Runs in the writing transaction with the zone before (null when new) and after the write. */
export type ZoneWrittenHook = (tx: StoreTx, accountId: number, before: StoredDnsZone | null, after: StoredDnsZone) => Promise<void>;

export class ZoneWriter {
  /** Background work that records ask for (acceleration, monitoring) is queued from here. */
  readonly onWritten: ZoneWrittenHook[] = [];
  /** Run once a zone's write has committed, before it is acknowledged (the DNS plane's view). */
  readonly onCommitted: ((id: number, accountId: number, zone: StoredDnsZone, version: number) => void)[] = [];
  readonly onDeleted: ((id: number) => void)[] = [];

  constructor(
    readonly store: Store,
    readonly zones: DocumentRepo<StoredDnsZone>,
    private readonly clock: () => Date,
  ) {}

  async written(tx: StoreTx, accountId: number, before: StoredDnsZone | null, after: StoredDnsZone): Promise<void> {
    for (const hook of this.onWritten) await hook(tx, accountId, before, after);
  }

  /** Writes `next` over `current` (read in this transaction): every change of a zone goes through here. */
  async replace(tx: StoreTx, accountId: number, current: StoredDoc<StoredDnsZone>, next: StoredDnsZone): Promise<void> {
    const zone = { ...next, Serial: nextSerial(current.doc.Serial, this.clock()) };
    await this.zones.update(tx, accountId, current, zone);
    await this.written(tx, accountId, current.doc, zone);
    this.committedOn(tx, zone.Id, accountId, zone, current.version + 1);
  }

  /** Tells onCommitted once `tx` commits: a new zone is at version 1, each write adds one. */
  committedOn(tx: StoreTx, id: number, accountId: number, zone: StoredDnsZone, version: number): void {
    if (this.onCommitted.length === 0) return;
    tx.afterCommit(() => {
      for (const fn of this.onCommitted) fn(id, accountId, zone, version);
    });
  }

  deletedOn(tx: StoreTx, id: number): void {
    if (this.onDeleted.length === 0) return;
    tx.afterCommit(() => {
      for (const fn of this.onDeleted) fn(id);
    });
  }

  async edit<T>(accountId: number, zoneId: number, change: (tx: StoreTx, zone: StoredDnsZone) => Promise<ZoneEdit<T>>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.store.transaction(async (tx) => {
          const current = await this.zones.get(tx, accountId, zoneId);
          const { zone, result } = await change(tx, current.doc);
          if (zone) await this.replace(tx, accountId, current, zone);
          return result;
        });
      } catch (error) {
        const lostRace = error instanceof AppError && error.key === 'concurrent_update';
        if (!lostRace || attempt >= ZONE_WRITE_ATTEMPTS) throw error;
      }
    }
  }
}
