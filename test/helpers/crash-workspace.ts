/**
 * A store and a files folder that outlive the server processes a crash test starts and kills: made
 * before the file's tests, removed after them. Each process gets the same environment.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type TestStoreLocation, testStoreLocation } from './store.js';

export interface CrashWorkspace {
  /** The folder; the files backend is its `files/`. */
  readonly dir: string;
  readonly location: TestStoreLocation;
  /** The environment of every server process of the test file. */
  readonly env: Record<string, string>;
}

export function useCrashWorkspace(name: string, bootstrapKey: string): CrashWorkspace {
  let made: CrashWorkspace | undefined;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), `edgeplane-${name}-`));
    const location = await testStoreLocation(join(dir, 'db.sqlite'));
    made = {
      dir,
      location,
      env: {
        DATABASE_URL: location.databaseUrl,
        EDGEPLANE_FILES_URL: `file:${join(dir, 'files')}`,
        EDGEPLANE_BOOTSTRAP_KEY: bootstrapKey,
        EDGEPLANE_MASTER_KEY: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'warn',
        EDGEPLANE_RATE_LIMIT_PER_SECOND: '0',
      },
    };
  });
  afterAll(async () => {
    if (!made) return;
    await made.location.destroy();
    rmSync(made.dir, { recursive: true, force: true });
  });
  const current = () => {
    if (!made) throw new Error('the crash workspace is made before the tests run');
    return made;
  };
  return {
    get dir() {
      return current().dir;
    },
    get location() {
      return current().location;
    },
    get env() {
      return current().env;
    },
  };
}
