/** Resource documents on PostgreSQL (migration 0001). */
import { DOC_COLUMNS, type DocRow, NEW_DOC_COLUMNS, storedDoc } from '../tables/resources.js';
import { insertSql, postgresParam } from '../tables/sql.js';
import { NameTakenError, type DocChange, type Documents, type ListQuery, type NewDoc, type Page, type ResourceKind, type StoredDoc } from '../types.js';
import type { ChangeSink } from './changes.js';
import { type Queryable, run } from './queryable.js';

/** PostgreSQL keeps documents as text (it compresses large values itself). */
const storedDocFrom = <T>(r: DocRow): StoredDoc<T> => storedDoc<T>(r, r.doc as string);

const INSERT_DOC = insertSql('resources', NEW_DOC_COLUMNS, postgresParam);

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
      `SELECT ${DOC_COLUMNS} FROM resources WHERE kind = $1 AND account_id = $2 AND id = $3${this.lock ? ' FOR UPDATE' : ''}`,
      [kind, accountId, id],
    );
    return row && storedDocFrom<T>(row);
  }

  async scan<T>(kind: ResourceKind, offset: number, limit: number): Promise<StoredDoc<T>[]> {
    const rows = await run<DocRow>(this.db, `SELECT ${DOC_COLUMNS} FROM resources WHERE kind = $1 ORDER BY rid LIMIT $2 OFFSET $3`, [kind, limit, offset]);
    return rows.map((r) => storedDocFrom<T>(r));
  }

  async getAnyAccount<T>(kind: ResourceKind, id: string): Promise<StoredDoc<T> | undefined> {
    const [row] = await run<DocRow>(this.db, `SELECT ${DOC_COLUMNS} FROM resources WHERE kind = $1 AND id = $2${this.lock ? ' FOR UPDATE' : ''}`, [kind, id]);
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
      `SELECT ${DOC_COLUMNS} FROM resources WHERE ${where} ORDER BY rid LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
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
    const [row] = await run<DocRow>(this.db, `SELECT ${DOC_COLUMNS} FROM resources WHERE kind = $1 AND lower(name) = lower($2)`, [kind, name]);
    return row && storedDocFrom<T>(row);
  }

  async nameExists(kind: ResourceKind, name: string): Promise<boolean> {
    return (await run(this.db, 'SELECT 1 FROM resources WHERE kind = $1 AND lower(name) = lower($2)', [kind, name])).length > 0;
  }

  async insert<T>(kind: ResourceKind, d: NewDoc<T>): Promise<void> {
    // A taken name is skipped rather than refused (resources_by_name): a unique violation would
    // abort the whole transaction, and a caller may turn the taken name into an outcome and write on.
    const named = d.name !== undefined && d.name !== null;
    const res = await this.db.query(`${INSERT_DOC}${named ? ' ON CONFLICT (kind, lower(name)) WHERE name IS NOT NULL DO NOTHING' : ''}`, [
      kind,
      d.id,
      d.accountId,
      d.name ?? null,
      d.parentId ?? null,
      d.linkId ?? null,
      JSON.stringify(d.doc),
    ]);
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
