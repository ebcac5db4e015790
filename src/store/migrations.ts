/**
 * Locates and reads the numbered SQL migrations shipped with the package: once per process (they are
 * part of the installed package; a store opened again, as every test does, reads them no more).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

const loaded = new Map<string, readonly Migration[]>();

export function loadMigrations(dialect: 'sqlite' | 'postgres'): readonly Migration[] {
  let migrations = loaded.get(dialect);
  if (!migrations) {
    migrations = readMigrations(dialect);
    loaded.set(dialect, migrations);
  }
  return migrations;
}

function readMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  const dir = join(packageRoot(), 'migrations', dialect);
  return readdirSync(dir)
    .filter((f) => /^\d{4}-[a-z0-9-]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const sql = readFileSync(join(dir, file), 'utf8');
      return {
        version: Number(file.slice(0, 4)),
        name: file.replace(/\.sql$/, ''),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}
