/** Locates and reads the numbered SQL migrations shipped with the package. */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

/**
 * The package root holds `migrations/`; found by walking up to it, so it works from src/ and
 * dist/bundle/ (which has a package.json of its own, saying its files are CommonJS).
 */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'migrations'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package root not found');
    dir = up;
  }
  return dir;
}

export function loadMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
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
