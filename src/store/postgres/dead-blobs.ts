/** Blobs waiting for the sweep, on PostgreSQL (migration 0005). */
import type { DeadBlobs } from '../types.js';
import { type Queryable, run } from './queryable.js';

export class PgDeadBlobs implements DeadBlobs {
  constructor(private readonly db: Queryable) {}
  async add(keys: string[], deadAt: number): Promise<void> {
    if (keys.length === 0) return;
    await this.db.query('INSERT INTO dead_blobs (key, dead_at) SELECT unnest($1::text[]), $2 ON CONFLICT (key) DO NOTHING', [keys, deadAt]);
  }
  async due(before: number, limit: number): Promise<string[]> {
    return (await run<{ key: string }>(this.db, 'SELECT key FROM dead_blobs WHERE dead_at <= $1 ORDER BY dead_at LIMIT $2', [before, limit])).map((r) => r.key);
  }
  async forget(keys: string[]): Promise<void> {
    if (keys.length > 0) await this.db.query('DELETE FROM dead_blobs WHERE key = ANY($1::text[])', [keys]);
  }
}
