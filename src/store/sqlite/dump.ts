/** Dump and load for the SQLite store: its reads and writes for store/dump.ts. */
import type Database from 'better-sqlite3';
import { type DumpSource, dumpRecords, loadRecords, loadSql, OWNED_ROWS_SQL } from '../dump.js';
import type { SomeDumpedTable } from '../tables/dumped-table.js';
import { sqliteParam } from '../tables/sql.js';
import type { DumpRecord } from '../types.js';
import { sqliteDocs } from './doc-codec.js';

type Db = Database.Database;

export function dumpSqlite(db: Db): AsyncGenerator<DumpRecord> {
  const source: DumpSource = {
    docs: sqliteDocs,
    rows: (table) => db.prepare(`SELECT * FROM ${table.table} ORDER BY ${table.order.join(', ')}`).iterate() as Iterable<object>,
    sequences: () => db.prepare('SELECT name, last FROM sequences ORDER BY name').iterate() as Iterable<{ name: string; last: number }>,
  };
  return dumpRecords('sqlite', source);
}

export async function loadSqlite(db: Db, records: AsyncIterable<DumpRecord>): Promise<number> {
  const statements = new Map<SomeDumpedTable, Database.Statement>();
  const sequence = db.prepare<[string, number]>(
    'INSERT INTO sequences (name, last) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last = max(last, excluded.last)',
  );
  db.exec('BEGIN IMMEDIATE');
  try {
    const n = await loadRecords(records, {
      docs: sqliteDocs,
      ownedRows: () => (db.prepare(OWNED_ROWS_SQL).get() as { n: number }).n,
      insert: (table, values) => {
        let statement = statements.get(table);
        if (!statement) statements.set(table, (statement = db.prepare(loadSql(table, sqliteParam))));
        statement.run(...values);
      },
      sequence: (name, last) => {
        sequence.run(name, last);
      },
    });
    db.exec('COMMIT');
    return n;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
