/** API keys on PostgreSQL (migration 0001). */
import { KEY_COLUMNS, type KeyRow, keyFromRow, newKeyValues } from '../tables/api-keys.js';
import { insertSql, postgresParam } from '../tables/sql.js';
import type { ApiKeyRecord, ApiKeys, Page } from '../types.js';
import type { ChangeSink } from './changes.js';
import { type Queryable, run } from './queryable.js';

const INSERT_KEY = `${insertSql('api_keys', KEY_COLUMNS, postgresParam)} RETURNING *`;

export class PgApiKeys implements ApiKeys {
  constructor(
    private readonly db: Queryable,
    private readonly changes: ChangeSink,
  ) {}
  async create(k: Parameters<ApiKeys['create']>[0]): Promise<ApiKeyRecord> {
    const [row] = await run<KeyRow>(this.db, INSERT_KEY, newKeyValues(k));
    return keyFromRow(row!);
  }
  async findByLookupHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await run<KeyRow>(this.db, 'SELECT * FROM api_keys WHERE lookup_hash = $1 AND revoked_at IS NULL', [hash]);
    return row && keyFromRow(row);
  }
  async list(accountId: number, offset: number, limit: number): Promise<Page<ApiKeyRecord>> {
    const rows = await run<KeyRow & { total: number }>(
      this.db,
      `SELECT *, count(*) OVER () AS total FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL ORDER BY id LIMIT $2 OFFSET $3`,
      [accountId, limit, offset],
    );
    const total =
      rows[0]?.total ??
      (await run<{ n: number }>(this.db, 'SELECT count(*) AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL', [accountId]))[0]!.n;
    return { items: rows.map(keyFromRow), total };
  }
  async revoke(accountId: number, id: number, now: Date): Promise<boolean> {
    const res = await this.db.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND account_id = $3 AND revoked_at IS NULL', [
      now.toISOString(),
      id,
      accountId,
    ]);
    if (res.rowCount === 1) this.changes.emit({ type: 'apiKey', accountId, id });
    return res.rowCount === 1;
  }
}
