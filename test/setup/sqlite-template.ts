/**
 * Global setup of both projects: one SQLite file with every migration applied, which each test
 * store on SQLite starts as a copy of (test/helpers/store.ts). Applying the migrations to every new
 * file was a third of what a test app cost (one synced transaction per migration); a copy is the
 * same file, as new and as empty.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, closed SQLite file; copied, never opened. */
    sqliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'edgeplane-template-'));
  const file = join(dir, 'template.db');
  const store = await SqliteStore.open(file);
  await store.close();
  // Closing the last connection folds the write-ahead log into the file: the file alone is the store.
  if (existsSync(`${file}-wal`)) throw new Error(`the SQLite template kept a write-ahead log: ${file}-wal`);
  project.provide('sqliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
