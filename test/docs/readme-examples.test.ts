/**
 * Runs the README's curl examples, in order, in one shell against a real listening server, so
 * the documentation cannot drift from the behaviour. Any 4xx/5xx fails the run (curl
 * --fail-with-body), and every response must be JSON.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';

const run = promisify(execFile);

function exampleScript(): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split('<!-- examples:start -->')[1]?.split('<!-- examples:end -->')[0];
  if (!section) throw new Error('README has no examples section');
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks.length).toBeGreaterThan(5);
  return blocks.join('\n');
}

let t: TestContext;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

describe('README examples', () => {
  it('all succeed against a fresh server', async () => {
    // Each response is printed on a line of its own, then checked to be JSON.
    const prelude = 'set -euo pipefail\ncurl() { command curl --fail-with-body -sS "$@"; echo; }\n';
    const { stdout } = await run('bash', ['-c', prelude + exampleScript()], {
      env: { ...process.env, BASE: base, KEY: t.key },
      timeout: 60_000,
    });
    const outputs = stdout.split('\n').filter((line) => line.trim().length > 0);
    expect(outputs.length).toBeGreaterThanOrEqual(12);
    for (const line of outputs) expect(() => JSON.parse(line), line).not.toThrow();
    const lib = await t.get('/videolibrary/1');
    expect(lib.body.Name).toBe('Lectures');
    const records = (await t.get('/dnszone/1')).body.Records;
    expect(records.map((r: { Name: string }) => r.Name)).toEqual(['www', 'cdn']);
  });
});
