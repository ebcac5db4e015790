/**
 * How SQLite runs the store's lists. A list narrowed to a parent or a link must be served by that
 * column's index: served by the account's index instead, it reads every resource of the kind in
 * the account (a storage zone's linked pull zones, a pull zone's hostnames), which grows with the
 * account. And no statement binds a bare `LIMIT ?` or `OFFSET ?`, which SQLite compiles again at
 * every binding (src/store/sqlite/limits.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStatements } from '../../src/store/sqlite/resources.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { ListQuery } from '../../src/store/types.js';

let dir: string;
let db: Database.Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-plans-'));
  const file = join(dir, 'store.db');
  await (await SqliteStore.open(file)).close();
  db = new Database(file, { readonly: true });
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function plans(q: ListQuery): string[] {
  const { count, page, args } = listStatements('pullZone', 1, q);
  const explain = (sql: string, values: unknown[]) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as { detail: string }[]).map((r) => r.detail).join('; ');
  return [explain(count, args), explain(page, [...args, q.limit, q.offset])];
}

describe('SQLite lists', () => {
  it.each([
    ['a link', 'resources_by_link', { linkId: '7' }],
    ['a parent', 'resources_by_parent', { parentId: '7' }],
    ['a parent and a search', 'resources_by_parent', { parentId: '7', search: 'x' }],
    ['the account alone', 'resources_by_account', {}],
    ['the account, named only', 'resources_by_account', { named: true }],
  ])('narrowed to %s, use %s for the total and the page, and sort nothing', (_what, index, filter: Partial<ListQuery>) => {
    for (const plan of plans({ offset: 0, limit: 10, ...filter })) {
      expect(plan).toMatch(new RegExp(`USING (COVERING )?INDEX ${index} `));
      expect(plan).not.toContain('TEMP B-TREE');
    }
  });

  it('bind no bare LIMIT or OFFSET parameter anywhere in the SQLite store', () => {
    const folder = join(import.meta.dirname, '../../src/store/sqlite');
    const offenders = readdirSync(folder)
      .filter((f) => f.endsWith('.ts') && f !== 'limits.ts')
      .flatMap((f) =>
        readFileSync(join(folder, f), 'utf8')
          .split('\n')
          .map((line, i) => [`${f}:${i + 1}`, line] as const),
      )
      .filter(([, line]) => /\b(LIMIT|OFFSET)\s+[?@:$]/i.test(line))
      .map(([where]) => where);
    expect(offenders).toEqual([]);
  });
});
