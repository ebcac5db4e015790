/**
 * The query log of DNS zones whose logging is on: the last queries each zone answered, kept in
 * memory (bounded per zone, per instance), client addresses anonymized as the zone's settings ask.
 * Read through the operator route `GET /_edgeplane/dnszones/{id}/querylog`.
 */
import { BoundedMap } from '../bounded-map.js';
import { type Anonymization, anonymized } from '../usage/anonymize.js';

export interface QueryLogEntry {
  /** ISO time of the answer. */
  Time: string;
  ClientIp: string;
  Name: string;
  Type: string;
  ResponseCode: string;
  Transport: 'udp' | 'tcp';
}

/** Entries kept per zone; older ones are dropped. */
export const QUERY_LOG_SIZE = 1000;
const MAX_ZONES = 10_000;

export class QueryLog {
  private readonly zones = new BoundedMap<number, QueryLogEntry[]>(MAX_ZONES);

  add(zoneId: number, entry: QueryLogEntry, anonymization: Anonymization): void {
    const logged = { ...entry, ClientIp: anonymized(entry.ClientIp, anonymization) };
    const entries = this.zones.get(zoneId) ?? [];
    entries.push(logged);
    if (entries.length > QUERY_LOG_SIZE) entries.splice(0, entries.length - QUERY_LOG_SIZE);
    this.zones.set(zoneId, entries);
  }

  /** Newest first. */
  read(zoneId: number, limit = QUERY_LOG_SIZE): QueryLogEntry[] {
    return (this.zones.get(zoneId) ?? []).slice(-limit).reverse();
  }

  forget(zoneId: number): void {
    this.zones.delete(zoneId);
  }
}
