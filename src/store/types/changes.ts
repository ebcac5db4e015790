/** How in-process caches learn what changed. */
import type { ResourceKind } from './resources.js';

/** A write that can make a value cached in memory stale. */
export type StoreChange =
  | { type: 'doc'; kind: ResourceKind; accountId: number; id: string }
  | { type: 'apiKey'; accountId: number; id: number }
  /** Anything may have changed: a wipe, a load, a write by another process, or announcements missed. */
  | { type: 'all' };

/**
 * Lets in-process caches (authenticated keys, serialized views) stay correct: every write is
 * reported as it is made, before it commits, and a generation number moves with each one. A cache
 * reads the generation before it computes a value and stores the value only if the generation has
 * not moved since, so a write that raced the computation can never leave a stale entry behind.
 *
 * Every store offers one, and it also tells the data planes what to reload (a revoked password, a
 * new DNS record). Writes by other processes are noticed too: on SQLite through its data version
 * (an `edgeplane keys revoke` next to the server), on PostgreSQL through announcements on commit
 * that every instance listens to — where a lost connection counts as "everything changed".
 */
export interface ChangeFeed {
  /** The current generation; reading it first notices writes committed by other processes. */
  generation(): number;
  subscribe(listener: (change: StoreChange) => void): void;
}
