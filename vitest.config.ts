import { defineConfig } from 'vitest/config';

/**
 * The suite runs twice: on SQLite, and on a real PostgreSQL (started by test/setup/postgres.ts, or
 * TEST_DATABASE_URL). Everything that talks to a store runs in both; tests of the server process
 * and of pure code run once; test/postgres/ holds what only PostgreSQL can show (several instances).
 */
const storeTests = [
  'test/http/**/*.test.ts',
  'test/docs/readme-examples.test.ts',
  'test/store/**/*.test.ts',
  'test/postgres/**/*.test.ts',
  'test/security/**/*.test.ts',
  'test/planes/**/*.test.ts',
];
/** Under test/planes/ but about protocol mechanics alone (no store): run once. */
const storelessPlaneTests = [
  'test/planes/storage/request-framer.test.ts',
  'test/planes/storage/extension-methods.test.ts',
  // The DNS transport against a fake authority: nothing of the store.
  'test/planes/dns/answers.test.ts',
  'test/planes/dns/limits.test.ts',
  'test/planes/dns/fuzz.test.ts',
  'test/planes/dns/answer-cache.test.ts',
  'test/planes/dns/rate-limit.test.ts',
  'test/planes/dns/dig.test.ts',
  // The S3 plane in a server process on its own SQLite file.
  'test/planes/s3/listener.test.ts',
  // Signature Version 4 against AWS's published examples: pure code.
  'test/planes/s3/sigv4-vectors.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/postgres/**'],
          env: { TEST_STORE: 'sqlite' },
          globalSetup: ['test/setup/chromium.ts'],
          setupFiles: ['test/setup/reference-responses.ts'],
        },
      },
      {
        extends: true,
        // test/store/sqlite-*: how the SQLite store itself works (group commit), nothing to run on PostgreSQL.
        test: {
          name: 'postgres',
          include: storeTests,
          exclude: ['test/store/sqlite-*.test.ts', ...storelessPlaneTests],
          env: { TEST_STORE: 'postgres' },
          globalSetup: ['test/setup/postgres.ts'],
          setupFiles: ['test/setup/reference-responses.ts'],
        },
      },
    ],
  },
});
