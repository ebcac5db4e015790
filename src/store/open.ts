/** Opens the store that `DATABASE_URL` names. */
import type { Store } from './types.js';
import { SqliteStore } from './sqlite/sqlite-store.js';

export async function openStore(databaseUrl: string): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return SqliteStore.open(databaseUrl.slice('sqlite:'.length));
  throw new Error(`Unsupported DATABASE_URL: ${databaseUrl.split(':')[0]} (use sqlite:<path>)`);
}
