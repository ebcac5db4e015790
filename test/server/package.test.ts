/**
 * What `npm pack` ships is what `npx edgeplane` runs: the compiled CLI with its shebang, the
 * migrations of both stores, and nothing of the tests. (Installing the tarball itself needs the
 * registry and a native build, so it is checked by hand; see the closing notes.)
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the package', () => {
  it('ships the compiled CLI and both stores\' migrations, and no tests', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    for (const needed of ['dist/src/cli.js', 'dist/src/server.js', 'migrations/sqlite/0001-initial.sql', 'migrations/postgres/0001-initial.sql', 'README.md', 'package.json']) {
      expect(files, needed).toContain(needed);
    }
    expect(files.filter((f) => f.startsWith('test/') || f.startsWith('src/'))).toEqual([]);
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin['edgeplane']).toBe('dist/src/cli.js');
  }, 60_000);

  it('runs as a binary from the build', async () => {
    const cli = `${root}/dist/src/cli.js`;
    expect(existsSync(cli), 'npm install runs the build (prepare)').toBe(true);
    expect(readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    const { stdout } = await run(process.execPath, [cli, '--help']);
    expect(stdout).toMatch(/^edgeplane \d+\.\d+\.\d+/);
  }, 60_000);
});
