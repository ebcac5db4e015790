/** Resource documents on SQLite (migration 0001). */
import type Database from 'better-sqlite3';
import { DOC_COLUMNS, type DocRow, NEW_DOC_COLUMNS, storedDoc } from '../tables/resources.js';
import { insertSql, sqliteParam } from '../tables/sql.js';
import { NameTakenError, type DocChange, type Documents, type ListQuery, type NewDoc, type Page, type ResourceKind, type StoredDoc } from '../types.js';
import type { SqliteChangeFeed } from './changes.js';
import { decodeDoc, encodeDoc } from './doc-codec.js';
import { BOUND_PAGE } from './limits.js';

const storedDocFrom = <T>(r: DocRow): StoredDoc<T> => storedDoc<T>(r, decodeDoc(r.doc));

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
    page: `SELECT ${DOC_COLUMNS} FROM resources WHERE ${where} ORDER BY rid ${BOUND_PAGE}`,
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
    private readonly db: Database.Database,
    private readonly changes: SqliteChangeFeed,
  ) {
    this.getStmt = db.prepare<[string, number, string], DocRow>(`SELECT ${DOC_COLUMNS} FROM resources WHERE kind = ? AND account_id = ? AND id = ?`);
    this.anyStmt = db.prepare<[string, string], DocRow>(`SELECT ${DOC_COLUMNS} FROM resources WHERE kind = ? AND id = ?`);
    this.nameStmt = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM resources WHERE kind = ? AND name = ? COLLATE NOCASE');
    this.scanStmt = db.prepare<[string, number, number], DocRow>(`SELECT ${DOC_COLUMNS} FROM resources WHERE kind = ? ORDER BY rid ${BOUND_PAGE}`);
    this.holdsNameStmt = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM resources WHERE kind = ? AND id = ? AND name IS NOT NULL');
    this.byNameStmt = db.prepare<[string, string], DocRow>(`SELECT ${DOC_COLUMNS} FROM resources WHERE kind = ? AND name = ? COLLATE NOCASE`);
    this.insertStmt = db.prepare<[string, string, number, string | null, string | null, string | null, string | Buffer]>(
      insertSql('resources', NEW_DOC_COLUMNS, sqliteParam),
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
