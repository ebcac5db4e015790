/**
 * Global setup of the PostgreSQL test run: a real PostgreSQL server (test/helpers/own-postgres.ts),
 * or the server named by TEST_DATABASE_URL. Each test app then works in a schema of its own.
 */
import type { TestProject } from 'vitest/node';
import { ownPostgres } from '../helpers/own-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const existing = process.env['TEST_DATABASE_URL'];
  if (existing) {
    project.provide('pgUrl', existing);
    return;
  }
  // Many test apps at once, each with a small pool.
  const server = await ownPostgres(['-c', 'max_connections=300']);
  project.provide('pgUrl', server.url);
  return () => server.destroy();
}
