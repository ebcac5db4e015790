/**
 * A tied child (domain/containers/runtime/tied-child.ts) dies with its parent, even one killed
 * with SIGKILL, and with `stop()`; its exit status and output are the child's own.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnTied } from '../../src/domain/containers/runtime/tied-child.js';
import { within } from '../helpers/within.js';

/** Processes whose command line is exactly `argv` (read from /proc). */
function running(argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === wanted) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** A duration no other process uses: the sleep is found by its command line. */
const uniqueSeconds = () => `${600 + Math.floor(Math.random() * 1000)}.${process.pid}${Date.now() % 1000}`;

describe('spawnTied', () => {
  it('passes on the child output and exit status', async () => {
    const tied = spawnTied('sh', ['-c', 'echo out; echo err >&2; exit 3']);
    let out = '';
    let err = '';
    tied.process.stdout.on('data', (d: Buffer) => (out += d.toString()));
    tied.process.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => tied.process.once('close', resolve));
    expect({ out, err, code }).toEqual({ out: 'out\n', err: 'err\n', code: 3 });
  });

  it('stops the child when stopped', async () => {
    const seconds = uniqueSeconds();
    const tied = spawnTied('sleep', [seconds]);
    await within(5000, async () => running(['sleep', seconds]).length === 1);
    tied.stop();
    const code = await new Promise<number | null>((resolve) => tied.process.once('close', resolve));
    expect(code).not.toBe(0);
    expect(running(['sleep', seconds])).toEqual([]);
  });

  it('ends the child when its parent is killed with SIGKILL', async () => {
    const seconds = uniqueSeconds();
    const parent = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../fixtures/tied-child/parent.ts'), 'sleep', seconds], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        parent.stdout.on('data', (d: Buffer) => d.toString().includes('started') && resolve());
        parent.once('exit', () => reject(new Error('the parent exited early')));
      });
      await within(5000, async () => running(['sleep', seconds]).length === 1);
      parent.kill('SIGKILL');
      await within(5000, async () => running(['sleep', seconds]).length === 0);
    } finally {
      parent.kill('SIGKILL');
    }
    expect(running(['sleep', seconds])).toEqual([]);
  });
});
