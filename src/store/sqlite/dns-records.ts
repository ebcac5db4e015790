/** DNS records on SQLite, a row each (migration 0006). */
import type Database from 'better-sqlite3';
import { DNS_RECORD_COLUMNS } from '../tables/dns-records.js';
import { insertSql, sqliteParam } from '../tables/sql.js';
import type { DnsRecordRows, NewZoneRecord, Page } from '../types.js';
import { BOUND_PAGE } from './limits.js';

type Db = Database.Database;

export class SqliteDnsRecords implements DnsRecordRows {
  private readonly pageStmt;
  private readonly pageOfTypeStmt;
  private readonly countStmt;
  private readonly countOfTypeStmt;
  private readonly ofZonesStmt;
  private readonly getStmt;
  private readonly lastStmt;
  private readonly insertStmt;
  private readonly replaceStmt;
  private readonly removeStmt;
  private readonly removeZoneStmt;
  private readonly linkedStmt;

  constructor(db: Db) {
    this.pageStmt = db.prepare<[number, number, number], string>(`SELECT doc FROM dns_records WHERE zone_id = ? ORDER BY position ${BOUND_PAGE}`).pluck();
    this.pageOfTypeStmt = db
      .prepare<[number, number, number, number], string>(`SELECT doc FROM dns_records WHERE zone_id = ? AND type = ? ORDER BY position ${BOUND_PAGE}`)
      .pluck();
    this.countStmt = db.prepare<[number], number>('SELECT count(*) FROM dns_records WHERE zone_id = ?').pluck();
    this.countOfTypeStmt = db.prepare<[number, number], number>('SELECT count(*) FROM dns_records WHERE zone_id = ? AND type = ?').pluck();
    this.ofZonesStmt = db.prepare<[string], { zone_id: number; doc: string }>(
      'SELECT zone_id, doc FROM dns_records WHERE zone_id IN (SELECT value FROM json_each(?)) ORDER BY zone_id, position',
    );
    this.getStmt = db.prepare<[number, number], string>('SELECT doc FROM dns_records WHERE zone_id = ? AND id = ?').pluck();
    this.lastStmt = db.prepare<[number], number>('SELECT coalesce(max(position), 0) FROM dns_records WHERE zone_id = ?').pluck();
    this.insertStmt = db.prepare<[number, number, number, number, number, number | null, string]>(insertSql('dns_records', DNS_RECORD_COLUMNS, sqliteParam));
    this.replaceStmt = db.prepare<[number, number | null, string, number, number]>(
      'UPDATE dns_records SET type = ?, link_id = ?, doc = ? WHERE zone_id = ? AND id = ?',
    );
    this.removeStmt = db.prepare<[number, number]>('DELETE FROM dns_records WHERE zone_id = ? AND id = ?');
    this.removeZoneStmt = db.prepare<[number]>('DELETE FROM dns_records WHERE zone_id = ?');
    this.linkedStmt = db.prepare<[number, number], { zone_id: number; doc: string }>(
      'SELECT zone_id, doc FROM dns_records WHERE account_id = ? AND link_id = ? ORDER BY zone_id, position',
    );
  }

  async list<T>(zoneId: number, q: { type?: number | undefined; offset: number; limit: number }): Promise<Page<T>> {
    const limit = Math.min(q.limit, Number.MAX_SAFE_INTEGER);
    const docs = q.type === undefined ? this.pageStmt.all(zoneId, limit, q.offset) : this.pageOfTypeStmt.all(zoneId, q.type, limit, q.offset);
    const total = q.type === undefined ? this.countStmt.get(zoneId)! : this.countOfTypeStmt.get(zoneId, q.type)!;
    return { items: docs.map((doc) => JSON.parse(doc) as T), total };
  }

  async ofZones<T>(zoneIds: readonly number[]): Promise<Map<number, T[]>> {
    const byZone = new Map<number, T[]>();
    if (zoneIds.length === 0) return byZone;
    for (const row of this.ofZonesStmt.iterate(JSON.stringify(zoneIds))) {
      let records = byZone.get(row.zone_id);
      if (!records) byZone.set(row.zone_id, (records = []));
      records.push(JSON.parse(row.doc) as T);
    }
    return byZone;
  }

  async get<T>(zoneId: number, id: number): Promise<T | undefined> {
    const doc = this.getStmt.get(zoneId, id);
    return doc === undefined ? undefined : (JSON.parse(doc) as T);
  }

  async append<T>(accountId: number, zoneId: number, records: readonly NewZoneRecord<T>[]): Promise<void> {
    if (records.length === 0) return;
    const last = this.lastStmt.get(zoneId)!;
    for (const [i, r] of records.entries()) this.insertStmt.run(zoneId, r.id, accountId, last + i + 1, r.type, r.linkId, JSON.stringify(r.doc));
  }

  async replace<T>(zoneId: number, r: NewZoneRecord<T>): Promise<boolean> {
    return this.replaceStmt.run(r.type, r.linkId, JSON.stringify(r.doc), zoneId, r.id).changes === 1;
  }

  async remove(zoneId: number, id: number): Promise<boolean> {
    return this.removeStmt.run(zoneId, id).changes === 1;
  }

  async removeZone(zoneId: number): Promise<void> {
    this.removeZoneStmt.run(zoneId);
  }

  async linkedTo<T>(accountId: number, linkId: number): Promise<{ zoneId: number; doc: T }[]> {
    return this.linkedStmt.all(accountId, linkId).map((r) => ({ zoneId: r.zone_id, doc: JSON.parse(r.doc) as T }));
  }
}
