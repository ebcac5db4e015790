/** Opens the store that `DATABASE_URL` names; migrations are applied before it is returned. */
import type { Config } from '../config.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

export async function openStore(config: Pick<Config, 'databaseUrl' | 'dbPoolMax' | 'dbStatementTimeoutMs'>): Promise<Store> {
  const url = config.databaseUrl;
  if (url.startsWith('sqlite:')) return SqliteStore.open(url.slice('sqlite:'.length));
  return PostgresStore.open({ url, poolMax: config.dbPoolMax, statementTimeoutMs: config.dbStatementTimeoutMs });
}
