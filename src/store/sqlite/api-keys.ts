/** API keys on SQLite (migration 0001). */
import type Database from 'better-sqlite3';
import { KEY_COLUMNS, type KeyRow, keyFromRow, newKeyValues } from '../tables/api-keys.js';
import { insertSql, sqliteParam } from '../tables/sql.js';
import type { ApiKeyRecord, ApiKeys, Page } from '../types.js';
import type { SqliteChangeFeed } from './changes.js';
import { BOUND_PAGE } from './limits.js';

export class SqliteApiKeys implements ApiKeys {
  private readonly insertStmt;
  private readonly byHashStmt;
  private readonly pageStmt;
  private readonly countStmt;
  private readonly revokeStmt;
  constructor(
    db: Database.Database,
    private readonly changes: SqliteChangeFeed,
  ) {
    this.insertStmt = db.prepare<unknown[], KeyRow>(`${insertSql('api_keys', KEY_COLUMNS, sqliteParam)} RETURNING *`);
    this.byHashStmt = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE lookup_hash = ? AND revoked_at IS NULL');
    this.pageStmt = db.prepare<[number, number, number], KeyRow>(
      `SELECT * FROM api_keys WHERE account_id = ? AND revoked_at IS NULL ORDER BY id ${BOUND_PAGE}`,
    );
    this.countStmt = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM api_keys WHERE account_id = ? AND revoked_at IS NULL');
    this.revokeStmt = db.prepare<[string, number, number]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL');
  }
  async create(k: Parameters<ApiKeys['create']>[0]): Promise<ApiKeyRecord> {
    return keyFromRow(this.insertStmt.get(...newKeyValues(k))!);
  }
  async findByLookupHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = this.byHashStmt.get(hash);
    return row && keyFromRow(row);
  }
  async list(accountId: number, offset: number, limit: number): Promise<Page<ApiKeyRecord>> {
    return { items: this.pageStmt.all(accountId, limit, offset).map(keyFromRow), total: this.countStmt.get(accountId)!.n };
  }
  async revoke(accountId: number, id: number, now: Date): Promise<boolean> {
    this.changes.emit({ type: 'apiKey', accountId, id });
    return this.revokeStmt.run(now.toISOString(), id, accountId).changes === 1;
  }
}
