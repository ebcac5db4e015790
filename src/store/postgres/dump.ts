/** Dump and load for the PostgreSQL store: its reads and writes for store/dump.ts. Reads go in keyset pages, not at once. */
import type pg from 'pg';
import { type DumpSource, dumpRecords, loadRecords, loadSql, OWNED_ROWS_SQL } from '../dump.js';
import type { DocCodec, SomeDumpedTable } from '../tables/dumped-table.js';
import { postgresParam } from '../tables/sql.js';
import type { DumpRecord } from '../types.js';
import type { PgSequences } from './sequences.js';

const PAGE = 1000;

/** PostgreSQL keeps documents as text (it compresses large values itself). */
const postgresDocs: DocCodec = { encode: (_kind, json) => json, decode: (stored) => stored as string };

/** A table's rows in the order of its unique key, a page at a time, each page resuming after the last row's key. */
async function* pages(pool: pg.Pool, table: string, keys: readonly string[]): AsyncGenerator<pg.QueryResultRow> {
  let after: unknown[] | undefined;
  const list = keys.join(', ');
  const placeholders = keys.map((_k, i) => `$${i + 1}`).join(', ');
  for (;;) {
    const where = after ? `WHERE (${list}) > (${placeholders})` : '';
    const { rows } = await pool.query(`SELECT * FROM ${table} ${where} ORDER BY ${list} LIMIT ${PAGE}`, after ?? []);
    yield* rows;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = keys.map((k) => last[k]);
  }
}

/** `seq_pull_zone` → `pullZone`: the reverse of sequenceName(). */
const sequenceKey = (seq: string) => seq.slice('seq_'.length).replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** Where each of this schema's id sequences stands (see PgSequences). */
async function* sequencesOf(pool: pg.Pool): AsyncGenerator<{ name: string; last: number }> {
  const { rows } = await pool.query<{ sequencename: string; last_value: number | null }>(
    `SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = current_schema() AND sequencename LIKE 'seq\\_%' ORDER BY sequencename`,
  );
  for (const s of rows) if (s.last_value !== null) yield { name: sequenceKey(s.sequencename), last: s.last_value };
}

export function dumpPostgres(pool: pg.Pool): AsyncGenerator<DumpRecord> {
  const source: DumpSource = { docs: postgresDocs, rows: (table) => pages(pool, table.table, table.order), sequences: () => sequencesOf(pool) };
  return dumpRecords('postgres', source);
}

export async function loadPostgres(pool: pg.Pool, sequences: PgSequences, records: AsyncIterable<DumpRecord>): Promise<number> {
  const client = await pool.connect();
  const seqs: { name: string; last: number }[] = [];
  const statements = new Map<SomeDumpedTable, string>();
  let n = 0;
  try {
    await client.query('BEGIN');
    // One announcement of everything at the end instead of one per row (migration 0004).
    await client.query("SET LOCAL edgeplane.bulk = 'on'");
    n = await loadRecords(records, {
      docs: postgresDocs,
      ownedRows: async () => (await client.query<{ n: number }>(OWNED_ROWS_SQL)).rows[0]!.n,
      insert: async (table, values) => {
        let sql = statements.get(table);
        if (sql === undefined) statements.set(table, (sql = loadSql(table, postgresParam)));
        await client.query(sql, values);
      },
      sequence: (name, last) => {
        seqs.push({ name, last });
      },
    });
    // Rows came with their ids: move the serial counters past them.
    for (const table of ['accounts', 'api_keys', 'audit_log', 'billing_records', 'access_log']) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT max(id) FROM ${table}), 1), (SELECT max(id) FROM ${table}) IS NOT NULL)`,
      );
    }
    await client.query("SELECT pg_notify('edgeplane_' || md5(current_schema()), coalesce(current_setting('edgeplane.instance', true), '') || '|all')");
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  for (const s of seqs) await sequences.advance(s.name, s.last);
  return n;
}
