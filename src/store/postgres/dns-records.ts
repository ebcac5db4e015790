/** DNS records on PostgreSQL, a row each (migration 0007). */
import type { DnsRecordRows, NewZoneRecord, Page } from '../types.js';
import type { Queryable } from './queryable.js';

/** Rows per INSERT of an import: one round trip each, parameters well under the protocol's 65,535. */
const APPEND_BATCH = 1000;

export class PgDnsRecords implements DnsRecordRows {
  constructor(private readonly db: Queryable) {}

  async list<T>(zoneId: number, q: { type?: number | undefined; offset: number; limit: number }): Promise<Page<T>> {
    const ofType = q.type === undefined ? '' : ' AND type = $2';
    const args: unknown[] = q.type === undefined ? [zoneId] : [zoneId, q.type];
    const n = args.length;
    const { rows } = await this.db.query<{ doc: string; total: number }>(
      `SELECT doc, (SELECT count(*) FROM dns_records WHERE zone_id = $1${ofType}) AS total
       FROM dns_records WHERE zone_id = $1${ofType} ORDER BY position LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...args, Math.min(q.limit, Number.MAX_SAFE_INTEGER), q.offset],
    );
    if (rows.length > 0) return { items: rows.map((r) => JSON.parse(r.doc) as T), total: rows[0]!.total };
    const { rows: counted } = await this.db.query<{ n: number }>(`SELECT count(*) AS n FROM dns_records WHERE zone_id = $1${ofType}`, args);
    return { items: [], total: counted[0]!.n };
  }

  async ofZones<T>(zoneIds: readonly number[]): Promise<Map<number, T[]>> {
    const byZone = new Map<number, T[]>();
    if (zoneIds.length === 0) return byZone;
    const { rows } = await this.db.query<{ zone_id: number; doc: string }>(
      'SELECT zone_id, doc FROM dns_records WHERE zone_id = ANY($1::bigint[]) ORDER BY zone_id, position',
      [zoneIds],
    );
    for (const row of rows) {
      let records = byZone.get(row.zone_id);
      if (!records) byZone.set(row.zone_id, (records = []));
      records.push(JSON.parse(row.doc) as T);
    }
    return byZone;
  }

  async get<T>(zoneId: number, id: number): Promise<T | undefined> {
    const { rows } = await this.db.query<{ doc: string }>('SELECT doc FROM dns_records WHERE zone_id = $1 AND id = $2', [zoneId, id]);
    return rows[0] && (JSON.parse(rows[0].doc) as T);
  }

  /** One statement per batch: the zone's last position is read by the statement itself. */
  async append<T>(accountId: number, zoneId: number, records: readonly NewZoneRecord<T>[]): Promise<void> {
    for (let start = 0; start < records.length; start += APPEND_BATCH) {
      const batch = records.slice(start, start + APPEND_BATCH);
      await this.db.query(
        `INSERT INTO dns_records (zone_id, id, account_id, position, type, link_id, doc)
         SELECT $1, r.id, $2, (SELECT coalesce(max(position), 0) FROM dns_records WHERE zone_id = $1) + r.n, r.type, r.link_id, r.doc
         FROM unnest($3::bigint[], $4::integer[], $5::bigint[], $6::text[]) WITH ORDINALITY AS r(id, type, link_id, doc, n)`,
        [zoneId, accountId, batch.map((r) => r.id), batch.map((r) => r.type), batch.map((r) => r.linkId), batch.map((r) => JSON.stringify(r.doc))],
      );
    }
  }

  async replace<T>(zoneId: number, r: NewZoneRecord<T>): Promise<boolean> {
    const res = await this.db.query('UPDATE dns_records SET type = $1, link_id = $2, doc = $3 WHERE zone_id = $4 AND id = $5', [
      r.type,
      r.linkId,
      JSON.stringify(r.doc),
      zoneId,
      r.id,
    ]);
    return res.rowCount === 1;
  }

  async remove(zoneId: number, id: number): Promise<boolean> {
    return (await this.db.query('DELETE FROM dns_records WHERE zone_id = $1 AND id = $2', [zoneId, id])).rowCount === 1;
  }

  async removeZone(zoneId: number): Promise<void> {
    await this.db.query('DELETE FROM dns_records WHERE zone_id = $1', [zoneId]);
  }

  async linkedTo<T>(accountId: number, linkId: number): Promise<{ zoneId: number; doc: T }[]> {
    const { rows } = await this.db.query<{ zone_id: number; doc: string }>(
      'SELECT zone_id, doc FROM dns_records WHERE account_id = $1 AND link_id = $2 ORDER BY zone_id, position',
      [accountId, linkId],
    );
    return rows.map((r) => ({ zoneId: r.zone_id, doc: JSON.parse(r.doc) as T }));
  }
}
