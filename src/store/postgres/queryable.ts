/**
 * What every PostgreSQL repository works on: the pool for single statements, or one client holding
 * a transaction. Inside a transaction, reads of resource documents lock the row (FOR UPDATE), so a
 * concurrent read-modify-write waits for ours and then sees our result: updates made through two
 * instances at once are never lost.
 */
import type { QueryResultRow } from 'pg';

export interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** The rows a statement answers. */
export async function run<R extends QueryResultRow>(db: Queryable, sql: string, values: unknown[] = []): Promise<R[]> {
  return (await db.query<R>(sql, values)).rows;
}
