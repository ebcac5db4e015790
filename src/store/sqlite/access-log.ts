/** The pull zones' access log on SQLite (migration 0008). */
import type Database from 'better-sqlite3';
import type { AccessLog, AccessLogEntry } from '../types.js';

export interface Row {
  id: number;
  account_id: number;
  pull_zone_id: number;
  at: number;
  entry: string;
}

export const fromRow = (r: Row): AccessLogEntry => ({ id: r.id, accountId: r.account_id, pullZoneId: r.pull_zone_id, at: r.at, entry: r.entry });

export class SqliteAccessLog implements AccessLog {
  private readonly insertStmt;
  private readonly newestStmt;
  private readonly oldestStmt;
  private readonly trimStmt;
  private readonly clearStmt;

  constructor(db: Database.Database) {
    this.insertStmt = db.prepare<[number, number, number, string]>('INSERT INTO access_log (account_id, pull_zone_id, at, entry) VALUES (?, ?, ?, ?)');
    this.newestStmt = db.prepare<[number, number, number], Row>('SELECT * FROM access_log WHERE pull_zone_id = ? ORDER BY id DESC LIMIT ? OFFSET ?');
    this.oldestStmt = db.prepare<[number, number, number], Row>('SELECT * FROM access_log WHERE pull_zone_id = ? ORDER BY id LIMIT ? OFFSET ?');
    // The id of the newest entry beyond those kept: it and everything older goes.
    this.trimStmt = db.prepare<[number, number, number]>(
      'DELETE FROM access_log WHERE pull_zone_id = ? AND id <= (SELECT id FROM access_log WHERE pull_zone_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)',
    );
    this.clearStmt = db.prepare<[number]>('DELETE FROM access_log WHERE pull_zone_id = ?');
  }

  async append(entries: Omit<AccessLogEntry, 'id'>[]): Promise<void> {
    for (const e of entries) this.insertStmt.run(e.accountId, e.pullZoneId, e.at, e.entry);
  }

  async list(pullZoneId: number, options: { offset: number; limit: number; descending: boolean }): Promise<AccessLogEntry[]> {
    const stmt = options.descending ? this.newestStmt : this.oldestStmt;
    return stmt.all(pullZoneId, options.limit, options.offset).map(fromRow);
  }

  async trim(pullZoneIds: number[], keep: number): Promise<number> {
    let removed = 0;
    for (const id of pullZoneIds) removed += (keep === 0 ? this.clearStmt.run(id) : this.trimStmt.run(id, id, keep)).changes;
    return removed;
  }
}
