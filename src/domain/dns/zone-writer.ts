/**
 * Every change to a zone goes through here: its settings (the zone's document) and its records
 * (rows of their own, in the zone's order). A write touches the records it changes and rewrites
 * the zone's document, which is small and the same size however many records the zone holds: its
 * serial grows with every change (the SOA serial), and its version orders the writes for the DNS
 * plane (served-zones.ts). So adding a record to a zone of 10,000 costs what adding it to an empty
 * zone does.
 *
 * The zone's versioned update refuses a write based on a stale read (409 `concurrent_update`);
 * SQLite serializes transactions and the PostgreSQL store locks the zone row it reads (so record
 * writes to one zone queue behind each other there too), so today that never happens, but a store
 * without such locks would turn two clients adding records at once into a spurious 409. Re-running
 * the whole transaction on a fresh read is always safe here, because each edit reads what it
 * changes inside the transaction.
 */
import type { DnsRecordT, DnsZoneT } from '../../schemas/dns.js';
import type { NewZoneRecord, Store, StoredDoc, StoreTx } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import { AppError } from '../errors.js';
import type { WriteOwner } from '../principal.js';
import { linkedId } from './record-model.js';
import type { RecordChanges, ZoneSigningKey } from './serving/types.js';

/**
 * A zone's document as stored: what the API shows but its records (rows of their own, see
 * DnsRecordRows), plus what only serving needs (left out of every answer by the response schema).
 * `Serial` grows with every write (the SOA serial); `DnsSecKey` is the signing key, its private
 * part sealed at rest like every credential.
 */
export type StoredDnsZone = Omit<DnsZoneT, 'Records'> & { Serial?: number; DnsSecKey?: ZoneSigningKey };

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

/** What one write did to a zone's records. */
export interface ZoneEdit<T> {
  /** The zone's document to write; left out when it did not change (the serial still grows if records did). */
  zone?: StoredDnsZone;
  records?: Partial<RecordChanges>;
  result: T;
}

/** Runs in the writing transaction for each record added (`before` undefined) or changed. */
export type RecordWrittenHook = (tx: StoreTx, accountId: number, zoneId: number, before: DnsRecordT | undefined, after: DnsRecordT) => Promise<void>;

/**
 * Told once a zone's write has committed, before it is acknowledged: the zone's document at
 * `version` and what that write did to its records. A new zone is at version 1, its records all
 * `added`; each write adds one.
 */
export type ZoneCommittedHook = (id: number, accountId: number, zone: StoredDnsZone, version: number, records: RecordChanges) => void;

/** A record as a row: the columns are derived from the record, so they can never disagree with it. */
export const recordRow = (record: DnsRecordT): NewZoneRecord<DnsRecordT> => ({ id: record.Id, type: record.Type, linkId: linkedId(record), doc: record });

const noChanges = (): RecordChanges => ({ added: [], changed: [], removed: [] });

export class ZoneWriter {
  /** Background work that records ask for (acceleration, monitoring) is queued from here. */
  readonly onRecordWritten: RecordWrittenHook[] = [];
  /** The DNS plane's view of the zones. */
  readonly onCommitted: ZoneCommittedHook[] = [];
  readonly onDeleted: ((id: number) => void)[] = [];
  /** What goes with a zone, deleted in the zone's transaction (its certificates). */
  readonly onDelete: ((tx: StoreTx, accountId: number, id: number) => Promise<void>)[] = [];

  constructor(
    readonly store: Store,
    readonly zones: DocumentRepo<StoredDnsZone>,
    private readonly clock: () => Date,
  ) {}

  /** Adds a new zone with its first records. */
  async insert(tx: StoreTx, accountId: number, zone: StoredDnsZone, records: DnsRecordT[]): Promise<void> {
    await this.zones.insert(tx, accountId, zone.Id, zone);
    const changes = { ...noChanges(), added: records };
    await this.writeRecords(tx, accountId, zone.Id, changes);
    this.committedOn(tx, zone.Id, accountId, zone, 1, changes);
  }

  /** Writes `next` over `current` (read in this transaction) with the record changes: every change of a zone goes through here. */
  async apply(tx: StoreTx, accountId: number, current: StoredDoc<StoredDnsZone>, next: StoredDnsZone, records: Partial<RecordChanges> = {}): Promise<void> {
    const changes = { ...noChanges(), ...records };
    const zone = { ...next, Serial: nextSerial(current.doc.Serial, this.clock()) };
    await this.writeRecords(tx, accountId, zone.Id, changes);
    await this.zones.update(tx, accountId, current, zone);
    this.committedOn(tx, zone.Id, accountId, zone, current.version + 1, changes);
  }

  /** The zone and its records go together. */
  async delete(tx: StoreTx, accountId: number, id: number): Promise<void> {
    await this.zones.delete(tx, accountId, id);
    await tx.dnsRecords.removeZone(id);
    for (const hook of this.onDelete) await hook(tx, accountId, id);
    if (this.onDeleted.length === 0) return;
    tx.afterCommit(() => {
      for (const fn of this.onDeleted) fn(id);
    });
  }

  /** Reads the zone in a transaction of its own, lets `change` decide, and writes what it returns. */
  async edit<T>(owner: WriteOwner, zoneId: number, change: (tx: StoreTx, zone: StoredDnsZone) => Promise<ZoneEdit<T>>): Promise<T> {
    const { accountId } = owner;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.store.transaction(async (tx) => {
          const current = await this.zones.get(tx, accountId, zoneId);
          const { zone, records, result } = await change(tx, current.doc);
          const recordsChanged = !!(records?.added?.length || records?.changed?.length || records?.removed?.length);
          if (zone || recordsChanged) await this.apply(tx, accountId, current, zone ?? current.doc, records);
          return result;
        }, owner.durability);
      } catch (error) {
        const lostRace = error instanceof AppError && error.key === 'concurrent_update';
        if (!lostRace || attempt >= ZONE_WRITE_ATTEMPTS) throw error;
      }
    }
  }

  private async writeRecords(tx: StoreTx, accountId: number, zoneId: number, changes: RecordChanges): Promise<void> {
    for (const record of changes.removed) await tx.dnsRecords.remove(zoneId, record.Id);
    for (const { after } of changes.changed) await tx.dnsRecords.replace(zoneId, recordRow(after));
    await tx.dnsRecords.append(accountId, zoneId, changes.added.map(recordRow));
    if (this.onRecordWritten.length === 0) return;
    for (const { before, after } of changes.changed) for (const hook of this.onRecordWritten) await hook(tx, accountId, zoneId, before, after);
    for (const record of changes.added) for (const hook of this.onRecordWritten) await hook(tx, accountId, zoneId, undefined, record);
  }

  private committedOn(tx: StoreTx, id: number, accountId: number, zone: StoredDnsZone, version: number, changes: RecordChanges): void {
    if (this.onCommitted.length === 0) return;
    tx.afterCommit(() => {
      for (const fn of this.onCommitted) fn(id, accountId, zone, version, changes);
    });
  }
}
