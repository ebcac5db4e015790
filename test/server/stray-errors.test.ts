/**
 * The process's last resort (src/stray-errors.ts), in a real server process: errors nothing catches
 * are logged without their credentials; after a rejection or Node refusing a value the server serves
 * on, after an error that may have left it in an unknown state it stops and exits with 1. The errors
 * are provoked by a test-only preload (stray-errors-preload.ts), on signals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { safeToServeOn } from '../../src/stray-errors.js';
import { startServer, TEST_SERVER } from '../helpers/server-process.js';
import { within } from '../helpers/within.js';
import { SECRET } from './stray-errors-preload.js';

const KEY = 'bootstrap-key-0123456789';

/** The server as the tests start it (the run's bundle), with the preload, built for the file, loaded first. */
let withPreload: string[];
let preloadDir: string;
beforeAll(async () => {
  preloadDir = mkdtempSync(join(tmpdir(), 'edgeplane-stray-preload-'));
  const preload = join(preloadDir, 'stray-errors-preload.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./stray-errors-preload.ts', import.meta.url))],
    platform: 'node',
    format: 'esm',
    outfile: preload,
    logLevel: 'warning',
  });
  withPreload = ['--import', pathToFileURL(preload).href, ...TEST_SERVER];
});
afterAll(() => rmSync(preloadDir, { recursive: true, force: true }));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-stray-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface LogLine {
  level: number;
  msg: string;
  origin?: string;
  err?: { type: string; message: string; code?: string };
}

const logLines = (stdout: string): LogLine[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

describe('errors nothing catches', () => {
  it('are logged without their other properties, and the server serves on after a rejection or Node refusing a value', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_BOOTSTRAP_KEY: KEY }, withPreload);
    try {
      server.child.kill('SIGUSR2');
      // Log lines are written within a second (serve.ts).
      await within(5000, async () => {
        if (server.child.exitCode !== null) throw new Error(`the server exited with ${server.child.exitCode}:\n${server.stderr()}`);
        return logLines(server.stdout()).filter((line) => line.msg.startsWith('an error nothing caught')).length === 2;
      });
      const stray = logLines(server.stdout()).filter((line) => line.msg.startsWith('an error nothing caught'));
      expect(stray).toEqual([
        expect.objectContaining({ level: 50, origin: 'unhandledRejection', err: expect.objectContaining({ type: 'Error', message: 'a stray rejection' }) }),
        expect.objectContaining({ level: 50, origin: 'uncaughtException', err: expect.objectContaining({ type: 'TypeError', code: 'ERR_INVALID_CHAR' }) }),
      ]);
      expect(server.stdout()).not.toContain(SECRET);
      expect(server.child.exitCode).toBeNull();
      const answer = await fetch(`${server.base}/apikey`, { headers: { AccessKey: KEY } });
      expect(answer.status).toBe(200);
      const storage = await fetch(`${server.planes['storage']}/zone/file.txt`);
      expect(storage.status).toBe(401);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('stop the server, exit code 1, when one may have left the process in an unknown state', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_BOOTSTRAP_KEY: KEY }, withPreload);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGHUP');
    expect(await exited).toBe(1);
    const fatal = logLines(server.stdout()).filter((line) => line.level === 60);
    expect(fatal).toEqual([expect.objectContaining({ origin: 'uncaughtException', err: expect.objectContaining({ type: 'TypeError' }) })]);
  }, 60_000);

  it('tells them apart by what they are: rejections, system errors and Node refusing a value are safe to serve on after', () => {
    expect(safeToServeOn(new Error('x'), 'unhandledRejection')).toBe(true);
    expect(safeToServeOn('not an error', 'unhandledRejection')).toBe(true);
    expect(safeToServeOn(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }), 'uncaughtException')).toBe(true);
    expect(safeToServeOn(Object.assign(new TypeError('Invalid character'), { code: 'ERR_INVALID_CHAR' }), 'uncaughtException')).toBe(true);
    expect(safeToServeOn(Object.assign(new Error('assertion'), { code: 'ERR_INTERNAL_ASSERTION' }), 'uncaughtException')).toBe(false);
    expect(safeToServeOn(new TypeError("Cannot read properties of undefined (reading 'field')"), 'uncaughtException')).toBe(false);
    expect(safeToServeOn(Object.assign(new Error('terminating connection'), { code: '57P01' }), 'uncaughtException')).toBe(false);
    expect(safeToServeOn('thrown text', 'uncaughtException')).toBe(false);
  });
});
