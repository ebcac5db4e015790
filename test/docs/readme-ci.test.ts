/**
 * CI runs the README's own test command, so what the quick start promises is what CI proves: a
 * clean clone, installed from the lockfile, passes the tests. Changing one without the other
 * fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** The quick start's commands, comments dropped. */
function quickStartCommands(readme: string): string[] {
  const section = readme.split('## Quick start')[1]!.split('\n## ')[0]!;
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.length > 0);
}

/** What the CI script runs: every line but comments, the shell options and changing directory. */
function ciCommands(script: string): string[] {
  return script
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#') && !line.startsWith('set ') && !line.startsWith('cd '));
}

describe('the README quick start and CI', () => {
  const commands = quickStartCommands(read('README.md'));
  const testCommand = commands.find((c) => /\bnpm test$/.test(c));

  it('gives two commands: one that installs and starts the server, one that installs and runs the tests', () => {
    expect(commands).toHaveLength(2);
    expect(commands[0]).toMatch(/&& npm start$/);
    expect(testCommand).toBeDefined();
  });

  it('installs from the lockfile, so the tree a user gets is the tree CI tests', () => {
    for (const command of commands) expect(command).toMatch(/^npm ci && /);
  });

  it('is what .ci/run runs, exactly and alone', () => {
    expect(ciCommands(read('.ci/run'))).toEqual([testCommand]);
  });
});
