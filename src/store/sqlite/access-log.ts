/** The pull zones' access log on SQLite (migrations 0008, 0010). */
import type Database from 'better-sqlite3';
import { type AccessLogRow, accessLogFromRow, trimStatement } from '../tables/access-log.js';
import type { AccessLog, AccessLogEntry } from '../types.js';
import { BOUND_LIMIT } from './limits.js';

export class SqliteAccessLog implements AccessLog {
  private readonly insertStmt;
  private readonly newestStmt;
  private readonly beforeStmt;
  private readonly trimStmt;
  private readonly clearStmt;
  private readonly expireStmt;

  constructor(db: Database.Database) {
    this.insertStmt = db.prepare<[number, number, number, number, string]>(
      'INSERT INTO access_log (account_id, pull_zone_id, at, lines, entry) VALUES (?, ?, ?, ?, ?)',
    );
    this.newestStmt = db.prepare<[number, number], AccessLogRow>(`SELECT * FROM access_log WHERE pull_zone_id = ? ORDER BY id DESC ${BOUND_LIMIT}`);
    this.beforeStmt = db.prepare<[number, number, number], AccessLogRow>(
      `SELECT * FROM access_log WHERE pull_zone_id = ? AND id < ? ORDER BY id DESC ${BOUND_LIMIT}`,
    );
    this.trimStmt = db.prepare<[{ zone: number; keep: number }]>(trimStatement((n) => (n === 1 ? '@zone' : '@keep')));
    this.clearStmt = db.prepare<[number]>('DELETE FROM access_log WHERE pull_zone_id = ?');
    this.expireStmt = db.prepare<[number]>('DELETE FROM access_log WHERE at < ?');
  }

  async append(entries: Omit<AccessLogEntry, 'id'>[]): Promise<void> {
    for (const e of entries) this.insertStmt.run(e.accountId, e.pullZoneId, e.at, e.lines, e.entry);
  }

  async newest(pullZoneId: number, options: { beforeId?: number | undefined; limit: number }): Promise<AccessLogEntry[]> {
    const rows =
      options.beforeId === undefined ? this.newestStmt.all(pullZoneId, options.limit) : this.beforeStmt.all(pullZoneId, options.beforeId, options.limit);
    return rows.map(accessLogFromRow);
  }

  async trim(pullZoneIds: number[], keep: number): Promise<number> {
    let removed = 0;
    for (const id of pullZoneIds) removed += (keep === 0 ? this.clearStmt.run(id) : this.trimStmt.run({ zone: id, keep })).changes;
    return removed;
  }

  async expire(before: number): Promise<number> {
    return this.expireStmt.run(before).changes;
  }
}
