/** Prepared statements for each part of the SQLite store; driver errors are translated here. */
import type Database from 'better-sqlite3';
import {
  NameTakenError,
  type Account,
  type Accounts,
  type ApiKeyRecord,
  type ApiKeys,
  type DocChange,
  type Job,
  type Jobs,
  type Documents,
  type KeyKind,
  type ListQuery,
  type NewDoc,
  type Page,
  type ResourceKind,
  type StoredDoc,
} from '../types.js';
import type { SqliteChangeFeed } from './changes.js';
import { decodeDoc, encodeDoc } from './doc-codec.js';
import { BOUND_LIMIT, BOUND_PAGE } from './limits.js';

type Db = Database.Database;

interface AccountRow {
  id: number;
  name: string;
  balance: number;
  created_at: string;
}
const toAccount = (r: AccountRow): Account => ({ id: r.id, name: r.name, balance: r.balance, createdAt: r.created_at });

export class SqliteAccounts implements Accounts {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly listStmt;
  private readonly countStmt;
  private readonly balanceStmt;
  private readonly removeStmt;
  constructor(db: Db) {
    this.insertStmt = db.prepare<[string, number, string], AccountRow>('INSERT INTO accounts (name, balance, created_at) VALUES (?, ?, ?) RETURNING *');
    this.getStmt = db.prepare<[number], AccountRow>('SELECT * FROM accounts WHERE id = ?');
    this.listStmt = db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY id');
    this.countStmt = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM accounts');
    this.balanceStmt = db.prepare<[number, number]>('UPDATE accounts SET balance = ? WHERE id = ?');
    // The foreign keys cascade: keys, documents, the ledger and the audit log go with the account.
    this.removeStmt = db.prepare<[number]>('DELETE FROM accounts WHERE id = ?');
  }
  async create(name: string, balance: number, now: Date): Promise<Account> {
    return toAccount(this.insertStmt.get(name, balance, now.toISOString())!);
  }
  async get(id: number): Promise<Account | undefined> {
    const row = this.getStmt.get(id);
    return row && toAccount(row);
  }
  async list(): Promise<Account[]> {
    return this.listStmt.all().map(toAccount);
  }
  async count(): Promise<number> {
    return this.countStmt.get()!.n;
  }
  async setBalance(id: number, balance: number): Promise<boolean> {
    return this.balanceStmt.run(balance, id).changes === 1;
  }
  async remove(id: number): Promise<boolean> {
    return this.removeStmt.run(id).changes === 1;
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

export class SqliteApiKeys implements ApiKeys {
  private readonly insertStmt;
  private readonly byHashStmt;
  private readonly pageStmt;
  private readonly countStmt;
  private readonly revokeStmt;
  constructor(
    db: Db,
    private readonly changes: SqliteChangeFeed,
  ) {
    this.insertStmt = db.prepare<[number, string, string, string, string, string], KeyRow>(
      'INSERT INTO api_keys (account_id, kind, roles, lookup_hash, sealed_key, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *',
    );
    this.byHashStmt = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE lookup_hash = ? AND revoked_at IS NULL');
    this.pageStmt = db.prepare<[number, number, number], KeyRow>(
      `SELECT * FROM api_keys WHERE account_id = ? AND revoked_at IS NULL ORDER BY id ${BOUND_PAGE}`,
    );
    this.countStmt = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM api_keys WHERE account_id = ? AND revoked_at IS NULL');
    this.revokeStmt = db.prepare<[string, number, number]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL');
  }
  async create(k: Parameters<ApiKeys['create']>[0]): Promise<ApiKeyRecord> {
    return toKey(this.insertStmt.get(k.accountId, k.kind, JSON.stringify(k.roles), k.lookupHash, k.sealedKey, k.createdAt)!);
  }
  async findByLookupHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = this.byHashStmt.get(hash);
    return row && toKey(row);
  }
  async list(accountId: number, offset: number, limit: number): Promise<Page<ApiKeyRecord>> {
    return { items: this.pageStmt.all(accountId, limit, offset).map(toKey), total: this.countStmt.get(accountId)!.n };
  }
  async revoke(accountId: number, id: number, now: Date): Promise<boolean> {
    this.changes.emit({ type: 'apiKey', accountId, id });
    return this.revokeStmt.run(now.toISOString(), id, accountId).changes === 1;
  }
}

export class SqliteSequences {
  private readonly stmt;
  private readonly manyStmt;
  constructor(db: Db) {
    this.stmt = db.prepare<[string], { last: number }>(
      'INSERT INTO sequences (name, last) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET last = last + 1 RETURNING last',
    );
    this.manyStmt = db.prepare<[string, number], { last: number }>(
      'INSERT INTO sequences (name, last) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last = last + excluded.last RETURNING last',
    );
  }
  next(name: string): number {
    return this.stmt.get(name)!.last;
  }
  /** `count` ids in one step: transactions run one at a time, so they are consecutive. */
  nextMany(name: string, count: number): number[] {
    if (count <= 0) return [];
    const last = this.manyStmt.get(name, count)!.last;
    return Array.from({ length: count }, (_, i) => last - count + 1 + i);
  }
}

interface DocRow {
  id: string;
  account_id: number;
  version: number;
  doc: string | Buffer;
}
const storedDocFrom = <T>(r: DocRow): StoredDoc<T> => ({ id: r.id, accountId: r.account_id, version: r.version, doc: JSON.parse(decodeDoc(r.doc)) as T });

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * The two statements of a list (its total, then its page) and their arguments; the page takes the
 * limit and offset after them. A parent or link filter is served by its own index, whose `rid`
 * keeps the order: the account's column is then only checked (`+account_id`), or SQLite, with no
 * statistics to tell the two apart, walks every resource of the kind in the account to keep the
 * few it wants (a storage zone's linked pull zones read all 1,000 zones of the account, 119 µs).
 */
export function listStatements(kind: ResourceKind, accountId: number, q: ListQuery): { count: string; page: string; args: (string | number)[] } {
  const narrowed = q.parentId !== undefined || q.linkId !== undefined;
  let where = narrowed ? 'kind = ? AND +account_id = ?' : 'kind = ? AND account_id = ?';
  const args: (string | number)[] = [kind, accountId];
  if (q.parentId !== undefined) {
    where += ' AND parent_id = ?';
    args.push(q.parentId);
  }
  if (q.linkId !== undefined) {
    where += ' AND link_id = ?';
    args.push(q.linkId);
  }
  if (q.search) {
    where += ' AND instr(lower(name), lower(?)) > 0';
    args.push(q.search);
  }
  if (q.named) where += ' AND name IS NOT NULL';
  return {
    count: `SELECT count(*) AS n FROM resources WHERE ${where}`,
    page: `SELECT id, account_id, version, doc FROM resources WHERE ${where} ORDER BY rid ${BOUND_PAGE}`,
    args,
  };
}

export class SqliteDocuments implements Documents {
  private readonly listStatements = new Map<string, Database.Statement>();
  private readonly getStmt;
  private readonly anyStmt;
  private readonly nameStmt;
  private readonly byNameStmt;
  private readonly holdsNameStmt;
  private readonly scanStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly deleteStmt;
  constructor(
    private readonly db: Db,
    private readonly changes: SqliteChangeFeed,
  ) {
    this.getStmt = db.prepare<[string, number, string], DocRow>(
      'SELECT id, account_id, version, doc FROM resources WHERE kind = ? AND account_id = ? AND id = ?',
    );
    this.anyStmt = db.prepare<[string, string], DocRow>('SELECT id, account_id, version, doc FROM resources WHERE kind = ? AND id = ?');
    this.nameStmt = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM resources WHERE kind = ? AND name = ? COLLATE NOCASE');
    this.scanStmt = db.prepare<[string, number, number], DocRow>(
      `SELECT id, account_id, version, doc FROM resources WHERE kind = ? ORDER BY rid ${BOUND_PAGE}`,
    );
    this.holdsNameStmt = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM resources WHERE kind = ? AND id = ? AND name IS NOT NULL');
    this.byNameStmt = db.prepare<[string, string], DocRow>('SELECT id, account_id, version, doc FROM resources WHERE kind = ? AND name = ? COLLATE NOCASE');
    this.insertStmt = db.prepare<[string, string, number, string | null, string | null, string | null, string | Buffer]>(
      'INSERT INTO resources (kind, id, account_id, name, parent_id, link_id, doc) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.updateStmt = db.prepare<[string | null, string | null, string | null, string | Buffer, string, number, string, number]>(
      `UPDATE resources SET name = ?, parent_id = ?, link_id = ?, doc = ?, version = version + 1
       WHERE kind = ? AND account_id = ? AND id = ? AND version = ?`,
    );
    this.deleteStmt = db.prepare<[string, number, string]>('DELETE FROM resources WHERE kind = ? AND account_id = ? AND id = ?');
  }

  async get<T>(kind: ResourceKind, accountId: number, id: string): Promise<StoredDoc<T> | undefined> {
    const row = this.getStmt.get(kind, accountId, id);
    return row && storedDocFrom<T>(row);
  }

  async scan<T>(kind: ResourceKind, offset: number, limit: number): Promise<StoredDoc<T>[]> {
    return this.scanStmt.all(kind, limit, offset).map((r) => storedDocFrom<T>(r));
  }

  async getAnyAccount<T>(kind: ResourceKind, id: string): Promise<StoredDoc<T> | undefined> {
    const row = this.anyStmt.get(kind, id);
    return row && storedDocFrom<T>(row);
  }

  async list<T>(kind: ResourceKind, accountId: number, q: ListQuery): Promise<Page<StoredDoc<T>>> {
    const { count, page, args } = listStatements(kind, accountId, q);
    const total = (this.prepared(count).get(...args) as { n: number }).n;
    const rows = this.prepared(page).all(...args, q.limit, q.offset) as DocRow[];
    return { items: rows.map((r) => storedDocFrom<T>(r)), total };
  }

  /** Lists build their SQL from the filters given: a handful of shapes, each prepared once. */
  private prepared(sql: string): Database.Statement {
    let stmt = this.listStatements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.listStatements.set(sql, stmt);
    }
    return stmt;
  }

  async nameExists(kind: ResourceKind, name: string): Promise<boolean> {
    return this.nameStmt.get(kind, name) !== undefined;
  }

  async holdsName(kind: ResourceKind, id: string): Promise<boolean> {
    return this.holdsNameStmt.get(kind, id) !== undefined;
  }

  async findByName<T>(kind: ResourceKind, name: string): Promise<StoredDoc<T> | undefined> {
    const row = this.byNameStmt.get(kind, name);
    return row && storedDocFrom<T>(row);
  }

  async insert<T>(kind: ResourceKind, d: NewDoc<T>): Promise<void> {
    // Reported even for an insert: after a wipe or load, ids are handed out again.
    this.changes.emit({ type: 'doc', kind, accountId: d.accountId, id: d.id });
    try {
      this.insertStmt.run(kind, d.id, d.accountId, d.name ?? null, d.parentId ?? null, d.linkId ?? null, encodeDoc(kind, JSON.stringify(d.doc)));
    } catch (error) {
      if (isUniqueViolation(error) && d.name) throw new NameTakenError(kind, d.name);
      throw error;
    }
  }

  async update<T>(kind: ResourceKind, accountId: number, c: DocChange<T>): Promise<boolean> {
    this.changes.emit({ type: 'doc', kind, accountId, id: c.id });
    try {
      const res = this.updateStmt.run(
        c.name ?? null,
        c.parentId ?? null,
        c.linkId ?? null,
        encodeDoc(kind, JSON.stringify(c.doc)),
        kind,
        accountId,
        c.id,
        c.version,
      );
      return res.changes === 1;
    } catch (error) {
      if (isUniqueViolation(error) && c.name) throw new NameTakenError(kind, c.name);
      throw error;
    }
  }

  async delete(kind: ResourceKind, accountId: number, id: string): Promise<boolean> {
    this.changes.emit({ type: 'doc', kind, accountId, id });
    return this.deleteStmt.run(kind, accountId, id).changes === 1;
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

export class SqliteJobs implements Jobs {
  private readonly insertStmt;
  private readonly claimStmt;
  private readonly completeStmt;
  private readonly retryStmt;
  private readonly countStmt;
  private readonly byKindStmt;
  private readonly deleteStmt;
  constructor(db: Db) {
    this.insertStmt = db.prepare<[string, string, number]>('INSERT INTO jobs (kind, payload, run_at) VALUES (?, ?, ?)');
    this.claimStmt = db.prepare<[string, number, number, number, number], JobRow>(
      `UPDATE jobs SET locked_by = ?, locked_until = ?, attempts = attempts + 1
       WHERE id IN (SELECT id FROM jobs WHERE run_at <= ? AND (locked_until IS NULL OR locked_until < ?) ORDER BY run_at, id ${BOUND_LIMIT})
       RETURNING id, kind, payload, run_at, attempts`,
    );
    this.completeStmt = db.prepare<[number, string]>('DELETE FROM jobs WHERE id = ? AND locked_by = ?');
    this.retryStmt = db.prepare<[number, string, number, string]>(
      'UPDATE jobs SET run_at = ?, last_error = ?, locked_by = NULL, locked_until = NULL WHERE id = ? AND locked_by = ?',
    );
    this.countStmt = db.prepare<{ now: number }, { pending: number; leased: number }>(
      'SELECT count(*) - count(CASE WHEN locked_until >= @now THEN 1 END) AS pending, count(CASE WHEN locked_until >= @now THEN 1 END) AS leased FROM jobs',
    );
    this.byKindStmt = db.prepare<[string], { id: number; payload: string }>('SELECT id, payload FROM jobs WHERE kind = ?');
    this.deleteStmt = db.prepare<[number]>('DELETE FROM jobs WHERE id = ?');
  }
  async enqueue(kind: string, payload: unknown, runAt: number): Promise<number> {
    return Number(this.insertStmt.run(kind, JSON.stringify(payload), runAt).lastInsertRowid);
  }
  async claimDue(now: number, limit: number, worker: string, leaseUntil: number): Promise<Job[]> {
    return this.claimStmt.all(worker, leaseUntil, now, now, limit).map(toJob);
  }
  async complete(id: number, worker: string): Promise<void> {
    this.completeStmt.run(id, worker);
  }
  async retry(id: number, worker: string, runAt: number, error: string): Promise<void> {
    this.retryStmt.run(runAt, error.slice(0, 1000), id, worker);
  }
  async count(now: number): Promise<{ pending: number; leased: number }> {
    return this.countStmt.get({ now })!;
  }
  async cancel(kind: string, matches: (payload: unknown) => boolean): Promise<number> {
    let n = 0;
    for (const row of this.byKindStmt.all(kind)) {
      if (matches(JSON.parse(row.payload))) n += this.deleteStmt.run(row.id).changes;
    }
    return n;
  }
}
