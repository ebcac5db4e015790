/**
 * Store.wipe against the migrated schema, on both stores: every table is wiped by name, emptied
 * with the rows it refers to (ON DELETE CASCADE), or kept on purpose (src/store/wiped-tables.ts);
 * after a wipe, only the kept ones hold rows.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CASCADED_TABLES, KEPT_TABLES, WIPED_TABLES } from '../../src/store/wiped-tables.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { testStoreKind } from '../helpers/store.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

type Rows = Record<string, unknown>[];
/** A query on the store's own connection, whichever the dialect. */
async function query(sql: string, params: unknown[] = []): Promise<Rows> {
  if (testStoreKind() === 'sqlite') {
    const db = (t.store as unknown as { db: { prepare(sql: string): { all(...params: unknown[]): Rows } } }).db;
    return db.prepare(sql).all(...params);
  }
  const pool = (t.store as unknown as { pool: { query(sql: string, params: unknown[]): Promise<{ rows: Rows }> } }).pool;
  return (await pool.query(sql, params)).rows;
}

async function tables(): Promise<string[]> {
  const rows =
    testStoreKind() === 'sqlite'
      ? await query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
      : await query('SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()');
  return rows.map((r) => String(r['name'])).sort();
}

/** The tables `table` refers to with ON DELETE CASCADE. */
async function cascadesFrom(table: string): Promise<string[]> {
  const rows =
    testStoreKind() === 'sqlite'
      ? (await query(`SELECT "table" AS parent, on_delete FROM pragma_foreign_key_list(?)`, [table])).filter((r) => r['on_delete'] === 'CASCADE')
      : await query(
          `SELECT parent.relname AS parent FROM pg_constraint c JOIN pg_class child ON child.oid = c.conrelid JOIN pg_class parent ON parent.oid = c.confrelid
           JOIN pg_namespace n ON n.oid = child.relnamespace WHERE c.contype = 'f' AND c.confdeltype = 'c' AND child.relname = $1 AND n.nspname = current_schema()`,
          [table],
        );
  return rows.map((r) => String(r['parent']));
}

describe('Store.wipe', () => {
  it('has a decision for every table of the migrations: wiped, emptied by cascade, or kept', async () => {
    const decided = [...WIPED_TABLES, ...Object.keys(CASCADED_TABLES), ...Object.keys(KEPT_TABLES)];
    expect(new Set(decided).size).toBe(decided.length);
    expect(await tables()).toEqual([...decided].sort());
    for (const [table, parent] of Object.entries(CASCADED_TABLES)) expect(await cascadesFrom(table)).toContain(parent);
  });

  it('leaves rows only in the tables it keeps', async () => {
    const zone = await t.post('/pullzone', { Name: 'wiped-zone', OriginUrl: 'https://origin.example' });
    expect(zone.status).toBe(201);
    expect((await t.request('POST', '/dnszone', { Domain: 'wiped.example' }, undefined, { 'idempotency-key': 'wipe-1' })).status).toBe(201);
    const filled = [];
    for (const table of await tables()) if (Number((await query(`SELECT count(*) AS n FROM ${table}`))[0]!['n']) > 0) filled.push(table);
    expect(filled).toEqual(expect.arrayContaining(['accounts', 'api_keys', 'resources', 'idempotency_keys']));
    await t.store.wipe();
    const left = [];
    for (const table of await tables()) if (Number((await query(`SELECT count(*) AS n FROM ${table}`))[0]!['n']) > 0) left.push(table);
    expect(left.every((table) => table in KEPT_TABLES)).toBe(true);
  });
});
