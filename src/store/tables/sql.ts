/** SQL text the dialects build alike, but for their placeholders. */

/** Writes the i-th placeholder (from 1): `?` on SQLite, `$i` on PostgreSQL. */
export type Param = (index: number) => string;

export const sqliteParam: Param = () => '?';
export const postgresParam: Param = (index) => `$${index}`;

/** `INSERT INTO table (a, b) VALUES (?, ?)`, one placeholder a column. */
export const insertSql = (table: string, columns: readonly string[], param: Param): string =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => param(i + 1)).join(', ')})`;
