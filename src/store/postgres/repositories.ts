/**
 * PostgreSQL statements for each part of the store. Every repository works on a `Queryable`: the
 * pool for single statements, or one client holding a transaction. Inside a transaction, reads of
 * resource documents lock the row (FOR UPDATE), so a concurrent read-modify-write waits for ours
 * and then sees our result: updates made through two instances at once are never lost.
 */
import type { QueryResultRow } from 'pg';
import {
  NameTakenError,
  type Account,
  type Accounts,
  type ApiKeyRecord,
  type ApiKeys,
  type DocChange,
  type Documents,
  type Job,
  type Jobs,
  type KeyKind,
  type ListQuery,
  type NewDoc,
  type Page,
  type ResourceKind,
  type StoredDoc,
} from '../types.js';
import type { ChangeSink } from './changes.js';

export interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** Names each query in logs and errors, and keeps the SQL text in one place per operation. */
async function run<R extends QueryResultRow>(db: Queryable, sql: string, values: unknown[] = []): Promise<R[]> {
  return (await db.query<R>(sql, values)).rows;
}

interface AccountRow {
  id: number;
  name: string;
  balance: number;
  created_at: string;
}
const toAccount = (r: AccountRow): Account => ({ id: r.id, name: r.name, balance: r.balance, createdAt: r.created_at });

export class PgAccounts implements Accounts {
  constructor(private readonly db: Queryable) {}
  async create(name: string, balance: number, now: Date): Promise<Account> {
    const [row] = await run<AccountRow>(this.db, 'INSERT INTO accounts (name, balance, created_at) VALUES ($1, $2, $3) RETURNING *', [
      name,
      balance,
      now.toISOString(),
    ]);
    return toAccount(row!);
  }
  async get(id: number): Promise<Account | undefined> {
    const [row] = await run<AccountRow>(this.db, 'SELECT * FROM accounts WHERE id = $1', [id]);
    return row && toAccount(row);
  }
  async list(): Promise<Account[]> {
    return (await run<AccountRow>(this.db, 'SELECT * FROM accounts ORDER BY id')).map(toAccount);
  }
  async count(): Promise<number> {
    return (await run<{ n: number }>(this.db, 'SELECT count(*) AS n FROM accounts'))[0]!.n;
  }
  async setBalance(id: number, balance: number): Promise<boolean> {
    return (await this.db.query('UPDATE accounts SET balance = $1 WHERE id = $2', [balance, id])).rowCount === 1;
  }
  /** The foreign keys cascade: keys, documents, the ledger and the audit log go with the account. */
  async remove(id: number): Promise<boolean> {
    return (await this.db.query('DELETE FROM accounts WHERE id = $1', [id])).rowCount === 1;
  }
}

interface KeyRow {
  id: number;
  account_id: number;
  kind: KeyKind;
  roles: string;
  sealed_key: string;
  created_at: string;
}
const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  roles: JSON.parse(r.roles) as string[],
  sealedKey: r.sealed_key,
  createdAt: r.created_at,
});

export class PgApiKeys implements ApiKeys {
  constructor(
    private readonly db: Queryable,
    private readonly changes: ChangeSink,
  ) {}
  async create(k: Parameters<ApiKeys['create']>[0]): Promise<ApiKeyRecord> {
    const [row] = await run<KeyRow>(
      this.db,
      'INSERT INTO api_keys (account_id, kind, roles, lookup_hash, sealed_key, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [k.accountId, k.kind, JSON.stringify(k.roles), k.lookupHash, k.sealedKey, k.createdAt],
    );
    return toKey(row!);
  }
  async findByLookupHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await run<KeyRow>(this.db, 'SELECT * FROM api_keys WHERE lookup_hash = $1 AND revoked_at IS NULL', [hash]);
    return row && toKey(row);
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
    return { items: rows.map(toKey), total };
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

interface DocRow {
  id: string;
  account_id: number;
  version: number;
  doc: string;
}
const storedDocFrom = <T>(r: DocRow): StoredDoc<T> => ({ id: r.id, accountId: r.account_id, version: r.version, doc: JSON.parse(r.doc) as T });

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export class PgDocuments implements Documents {
  /** `lock`: this repository serves a transaction, whose reads lock the rows they return. */
  constructor(
    private readonly db: Queryable,
    private readonly lock: boolean,
    private readonly changes: ChangeSink,
  ) {}

  async get<T>(kind: ResourceKind, accountId: number, id: string): Promise<StoredDoc<T> | undefined> {
    const [row] = await run<DocRow>(
      this.db,
      `SELECT id, account_id, version, doc FROM resources WHERE kind = $1 AND account_id = $2 AND id = $3${this.lock ? ' FOR UPDATE' : ''}`,
      [kind, accountId, id],
    );
    return row && storedDocFrom<T>(row);
  }

  async scan<T>(kind: ResourceKind, offset: number, limit: number): Promise<StoredDoc<T>[]> {
    const rows = await run<DocRow>(this.db, 'SELECT id, account_id, version, doc FROM resources WHERE kind = $1 ORDER BY rid LIMIT $2 OFFSET $3', [
      kind,
      limit,
      offset,
    ]);
    return rows.map((r) => storedDocFrom<T>(r));
  }

  async getAnyAccount<T>(kind: ResourceKind, id: string): Promise<StoredDoc<T> | undefined> {
    const [row] = await run<DocRow>(
      this.db,
      `SELECT id, account_id, version, doc FROM resources WHERE kind = $1 AND id = $2${this.lock ? ' FOR UPDATE' : ''}`,
      [kind, id],
    );
    return row && storedDocFrom<T>(row);
  }

  async list<T>(kind: ResourceKind, accountId: number, q: ListQuery): Promise<Page<StoredDoc<T>>> {
    let where = 'kind = $1 AND account_id = $2';
    const args: unknown[] = [kind, accountId];
    if (q.parentId !== undefined) {
      args.push(q.parentId);
      where += ` AND parent_id = $${args.length}`;
    }
    if (q.linkId !== undefined) {
      args.push(q.linkId);
      where += ` AND link_id = $${args.length}`;
    }
    if (q.search) {
      args.push(q.search);
      where += ` AND strpos(lower(name), lower($${args.length})) > 0`;
    }
    if (q.named) where += ' AND name IS NOT NULL';
    const total = (await run<{ n: number }>(this.db, `SELECT count(*) AS n FROM resources WHERE ${where}`, args))[0]!.n;
    const rows = await run<DocRow>(
      this.db,
      `SELECT id, account_id, version, doc FROM resources WHERE ${where} ORDER BY rid LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, Math.min(q.limit, Number.MAX_SAFE_INTEGER), q.offset],
    );
    return { items: rows.map((r) => storedDocFrom<T>(r)), total };
  }

  async holdsName(kind: ResourceKind, id: string): Promise<boolean> {
    // FOR SHARE: a delete of the document (FOR UPDATE) waits for this transaction, and this one for it.
    const found = await run(this.db, `SELECT 1 FROM resources WHERE kind = $1 AND id = $2 AND name IS NOT NULL${this.lock ? ' FOR SHARE' : ''}`, [kind, id]);
    return found.length > 0;
  }

  async findByName<T>(kind: ResourceKind, name: string): Promise<StoredDoc<T> | undefined> {
    const [row] = await run<DocRow>(this.db, 'SELECT id, account_id, version, doc FROM resources WHERE kind = $1 AND lower(name) = lower($2)', [kind, name]);
    return row && storedDocFrom<T>(row);
  }

  async nameExists(kind: ResourceKind, name: string): Promise<boolean> {
    return (await run(this.db, 'SELECT 1 FROM resources WHERE kind = $1 AND lower(name) = lower($2)', [kind, name])).length > 0;
  }

  async insert<T>(kind: ResourceKind, d: NewDoc<T>): Promise<void> {
    // A taken name is skipped rather than refused (resources_by_name): a unique violation would
    // abort the whole transaction, and a caller may turn the taken name into an outcome and write on.
    const named = d.name !== undefined && d.name !== null;
    const res = await this.db.query(
      `INSERT INTO resources (kind, id, account_id, name, parent_id, link_id, doc) VALUES ($1, $2, $3, $4, $5, $6, $7)${named ? ' ON CONFLICT (kind, lower(name)) WHERE name IS NOT NULL DO NOTHING' : ''}`,
      [kind, d.id, d.accountId, d.name ?? null, d.parentId ?? null, d.linkId ?? null, JSON.stringify(d.doc)],
    );
    if (res.rowCount !== 1) throw new NameTakenError(kind, d.name!);
    this.changes.emit({ type: 'doc', kind, accountId: d.accountId, id: d.id });
  }

  async update<T>(kind: ResourceKind, accountId: number, c: DocChange<T>): Promise<boolean> {
    try {
      const res = await this.db.query(
        `UPDATE resources SET name = $1, parent_id = $2, link_id = $3, doc = $4, version = version + 1
         WHERE kind = $5 AND account_id = $6 AND id = $7 AND version = $8`,
        [c.name ?? null, c.parentId ?? null, c.linkId ?? null, JSON.stringify(c.doc), kind, accountId, c.id, c.version],
      );
      if (res.rowCount === 1) this.changes.emit({ type: 'doc', kind, accountId, id: c.id });
      return res.rowCount === 1;
    } catch (error) {
      if (isUniqueViolation(error) && c.name) throw new NameTakenError(kind, c.name);
      throw error;
    }
  }

  async delete(kind: ResourceKind, accountId: number, id: string): Promise<boolean> {
    const deleted = (await this.db.query('DELETE FROM resources WHERE kind = $1 AND account_id = $2 AND id = $3', [kind, accountId, id])).rowCount === 1;
    if (deleted) this.changes.emit({ type: 'doc', kind, accountId, id });
    return deleted;
  }
}

interface JobRow {
  id: number;
  kind: string;
  payload: string;
  run_at: number;
  attempts: number;
}
const toJob = (r: JobRow): Job => ({ id: r.id, kind: r.kind, payload: JSON.parse(r.payload) as unknown, runAt: r.run_at, attempts: r.attempts });

export class PgJobs implements Jobs {
  constructor(private readonly db: Queryable) {}
  async enqueue(kind: string, payload: unknown, runAt: number): Promise<number> {
    return (
      await run<{ id: number }>(this.db, 'INSERT INTO jobs (kind, payload, run_at) VALUES ($1, $2, $3) RETURNING id', [kind, JSON.stringify(payload), runAt])
    )[0]!.id;
  }
  async claimDue(now: number, limit: number, worker: string, leaseUntil: number): Promise<Job[]> {
    // SKIP LOCKED: instances polling at the same moment take disjoint jobs instead of queueing.
    const rows = await run<JobRow>(
      this.db,
      `UPDATE jobs SET locked_by = $1, locked_until = $2, attempts = attempts + 1
       WHERE id IN (SELECT id FROM jobs WHERE run_at <= $3 AND (locked_until IS NULL OR locked_until < $3)
                    ORDER BY run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING id, kind, payload, run_at, attempts`,
      [worker, leaseUntil, now, limit],
    );
    return rows.sort((a, b) => a.run_at - b.run_at || a.id - b.id).map(toJob);
  }
  async complete(id: number, worker: string): Promise<void> {
    await this.db.query('DELETE FROM jobs WHERE id = $1 AND locked_by = $2', [id, worker]);
  }
  async retry(id: number, worker: string, runAt: number, error: string): Promise<void> {
    await this.db.query('UPDATE jobs SET run_at = $1, last_error = $2, locked_by = NULL, locked_until = NULL WHERE id = $3 AND locked_by = $4', [
      runAt,
      error.slice(0, 1000),
      id,
      worker,
    ]);
  }
  async count(now: number): Promise<{ pending: number; leased: number }> {
    const [row] = await run<{ pending: number; leased: number }>(
      this.db,
      'SELECT count(*) FILTER (WHERE locked_until IS NULL OR locked_until < $1) AS pending, count(*) FILTER (WHERE locked_until >= $1) AS leased FROM jobs',
      [now],
    );
    return row!;
  }
  async cancel(kind: string, matches: (payload: unknown) => boolean): Promise<number> {
    let n = 0;
    for (const row of await run<{ id: number; payload: string }>(this.db, 'SELECT id, payload FROM jobs WHERE kind = $1', [kind])) {
      if (matches(JSON.parse(row.payload))) n += (await this.db.query('DELETE FROM jobs WHERE id = $1', [row.id])).rowCount ?? 0;
    }
    return n;
  }
}

/** How many ids of one sequence an instance draws at once: one round trip per block, not per create. */
const ID_BLOCK = 32;

/**
 * Ids come from real PostgreSQL sequences, one per name, created on first use: `nextval` takes no
 * row lock, so instances creating resources of one kind at once never queue behind each other.
 * Single ids are drawn a block at a time and handed out in order by this instance (a create then
 * spends no round trip on its id); ids left in a block when the process stops are never used, as
 * the platform's ids have gaps too. A wipe or an import moves the sequences: forget() drops the
 * blocks, and the store calls it on every change of everything the feed reports.
 */
export class PgSequences {
  private readonly known = new Set<string>();
  /** Ids drawn and not yet handed out, ascending, per sequence. */
  private readonly drawn = new Map<string, number[]>();
  /**
   * `admin` opens a connection of its own, outside the pool and outside any transaction: a
   * sequence created there survives a rollback, and a transaction waiting for it can never starve
   * the pool (every pooled connection held by a transaction that waits for one more).
   */
  constructor(private readonly admin: () => Promise<Queryable & { end(): Promise<void> }>) {}

  async next(db: Queryable, name: string): Promise<number> {
    const seq = sequenceName(name);
    const ready = this.drawn.get(seq);
    if (ready !== undefined && ready.length > 0) return ready.shift()!;
    const block = await this.nextMany(db, name, ID_BLOCK);
    // Creates running at once may each have drawn a block: keep every id, handed out in order.
    const kept = this.drawn.get(seq) ?? [];
    const id = block.shift()!;
    this.drawn.set(seq, kept.length === 0 ? block : [...kept, ...block].sort((a, b) => a - b));
    return id;
  }

  /** Drops the ids drawn ahead: the sequences were moved (a wipe, an import) or may have been. */
  forget(): void {
    this.drawn.clear();
  }

  /** `count` ids in one round trip; other sessions may draw from the sequence meanwhile, so they need not be consecutive. */
  async nextMany(db: Queryable, name: string, count: number): Promise<number[]> {
    if (count <= 0) return [];
    const seq = sequenceName(name);
    if (!this.known.has(seq)) await this.ensure(seq);
    const rows = await run<{ id: number }>(db, `SELECT nextval('${seq}') AS id FROM generate_series(1, $1::integer)`, [count]);
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }

  /** Sets a sequence so the next id is above `last` (used when importing a store). */
  async advance(name: string, last: number): Promise<void> {
    const seq = sequenceName(name);
    await this.ensure(seq);
    const client = await this.admin();
    try {
      await run(client, `SELECT setval('${seq}', GREATEST($1::bigint, 1), $1::bigint > 0)`, [last]);
    } finally {
      await client.end();
    }
  }

  private async ensure(seq: string): Promise<void> {
    const client = await this.admin();
    try {
      await client.query(`CREATE SEQUENCE IF NOT EXISTS ${seq}`);
    } catch (error) {
      // Another instance created it at the same moment: that is what we wanted.
      const code = (error as { code?: string }).code;
      if (code !== '23505' && code !== '42P07') throw error;
    } finally {
      await client.end();
    }
    this.known.add(seq);
  }
}

export function sequenceName(name: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`bad sequence name ${name}`);
  return `seq_${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
}
