/** The records of DNS zones, a row each. */
import type { Page } from './resources.js';

/** A DNS record to store: its row's columns are copies of record fields, for the queries that filter on them. */
export interface NewZoneRecord<T> {
  id: number;
  /** The record's type (its index in the platform's list of types). */
  type: number;
  /** What the record points at (a pull zone, a script), or null. */
  linkId: number | null;
  doc: T;
}

/**
 * The records of DNS zones, a row each, in each zone's order (the order they were added). The
 * zone itself is a document; its records are reached through it (the domain reads the zone,
 * scoped by account, before its records), so these calls are keyed by zone id.
 */
export interface DnsRecordRows {
  /** A page of the zone's records in order; `type` keeps one type. */
  list<T>(zoneId: number, query: { type?: number | undefined; offset: number; limit: number }): Promise<Page<T>>;
  /** Every record of each zone listed, in order (zones without records are left out). */
  ofZones<T>(zoneIds: readonly number[]): Promise<Map<number, T[]>>;
  get<T>(zoneId: number, id: number): Promise<T | undefined>;
  /** Adds records after the zone's last one, in the order given. */
  append<T>(accountId: number, zoneId: number, records: readonly NewZoneRecord<T>[]): Promise<void>;
  /** Rewrites a record in its place; false when the zone has no record with its id. */
  replace<T>(zoneId: number, record: NewZoneRecord<T>): Promise<boolean>;
  remove(zoneId: number, id: number): Promise<boolean>;
  /** Removes every record of the zone. */
  removeZone(zoneId: number): Promise<void>;
  /** The account's records that point at `linkId` (see NewZoneRecord.linkId), with their zone. */
  linkedTo<T>(accountId: number, linkId: number): Promise<{ zoneId: number; doc: T }[]>;
}
