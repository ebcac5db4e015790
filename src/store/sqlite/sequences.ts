/** Id sequences on SQLite: a row each in \`sequences\` (migration 0001). */
import type Database from 'better-sqlite3';

export class SqliteSequences {
  private readonly stmt;
  private readonly manyStmt;
  constructor(db: Database.Database) {
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
