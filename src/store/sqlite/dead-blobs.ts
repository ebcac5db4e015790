/** Blobs waiting for the sweep, on SQLite (migration 0004). */
import type Database from 'better-sqlite3';
import type { DeadBlobs } from '../types.js';
import { BOUND_LIMIT } from './limits.js';

export class SqliteDeadBlobs implements DeadBlobs {
  private readonly addStmt;
  private readonly dueStmt;
  private readonly forgetStmt;
  constructor(db: Database.Database) {
    this.addStmt = db.prepare<[string, number]>('INSERT INTO dead_blobs (key, dead_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');
    this.dueStmt = db.prepare<[number, number], { key: string }>(`SELECT key FROM dead_blobs WHERE dead_at <= ? ORDER BY dead_at ${BOUND_LIMIT}`);
    this.forgetStmt = db.prepare<[string]>('DELETE FROM dead_blobs WHERE key = ?');
  }
  async add(keys: string[], deadAt: number): Promise<void> {
    for (const key of keys) this.addStmt.run(key, deadAt);
  }
  async due(before: number, limit: number): Promise<string[]> {
    return this.dueStmt.all(before, limit).map((r) => r.key);
  }
  async forget(keys: string[]): Promise<void> {
    for (const key of keys) this.forgetStmt.run(key);
  }
}
