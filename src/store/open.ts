/** Opens the store that `DATABASE_URL` names; migrations are applied before it is returned. */
import type { Config } from '../config.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

export async function openStore(config: Pick<Config, 'databaseUrl' | 'dbPoolMax' | 'dbStatementTimeoutMs'>): Promise<Store> {
  const url = config.databaseUrl;
  if (url.startsWith('sqlite:')) return SqliteStore.open(url.slice('sqlite:'.length));
  // Loaded only when named: the PostgreSQL driver is start-up time an embedded store does not need.
  const { PostgresStore } = await import('./postgres/postgres-store.js');
  return PostgresStore.open({ url, poolMax: config.dbPoolMax, statementTimeoutMs: config.dbStatementTimeoutMs });
}
