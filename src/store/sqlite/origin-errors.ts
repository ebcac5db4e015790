/** The pull zones' origin errors on SQLite (migration 0014). */
import type Database from 'better-sqlite3';
import { ORIGIN_ERROR_COLUMNS, type OriginErrorRow, originErrorFromRow, originErrorValues, trimDayStatement } from '../tables/origin-errors.js';
import type { OriginErrorEntry, OriginErrors } from '../types.js';
import { BOUND_LIMIT } from './limits.js';

type Values = ReturnType<typeof originErrorValues>;

export class SqliteOriginErrors implements OriginErrors {
  private readonly insertStmt;
  private readonly betweenStmt;
  private readonly trimStmt;
  private readonly removeStmt;
  private readonly expireStmt;

  constructor(db: Database.Database) {
    this.insertStmt = db.prepare<Values>(`INSERT INTO origin_errors (day, ${ORIGIN_ERROR_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.betweenStmt = db.prepare<[number, number, number, number], OriginErrorRow>(
      `SELECT * FROM origin_errors WHERE pull_zone_id = ? AND at >= ? AND at < ? ORDER BY at, id ${BOUND_LIMIT}`,
    );
    const names = { 1: '@zone', 2: '@day', 3: 'CAST(@keep AS INTEGER)' } as const;
    this.trimStmt = db.prepare<[{ zone: number; day: number; keep: number }]>(trimDayStatement((n) => names[n]));
    this.removeStmt = db.prepare<[number]>('DELETE FROM origin_errors WHERE pull_zone_id = ?');
    this.expireStmt = db.prepare<[number]>('DELETE FROM origin_errors WHERE at < ?');
  }

  async append(entries: OriginErrorEntry[]): Promise<void> {
    for (const e of entries) this.insertStmt.run(...originErrorValues(e));
  }

  async between(pullZoneId: number, from: number, to: number, limit: number): Promise<OriginErrorEntry[]> {
    return this.betweenStmt.all(pullZoneId, from, to, limit).map(originErrorFromRow);
  }

  async trimDay(pullZoneId: number, day: number, keep: number): Promise<number> {
    return this.trimStmt.run({ zone: pullZoneId, day, keep }).changes;
  }

  async removeZone(pullZoneId: number): Promise<number> {
    return this.removeStmt.run(pullZoneId).changes;
  }

  async expire(before: number): Promise<number> {
    return this.expireStmt.run(before).changes;
  }
}
