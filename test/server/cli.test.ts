import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-cli-'));
  env = { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_MASTER_KEY: randomBytes(32).toString('hex') };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('edgeplane CLI', { timeout: 90_000 }, () => {
  it('prints usage with --help', async () => {
    const res = await cli(['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/Usage: edgeplane <command>/);
    expect(res.stdout).toMatch(/--database-url/);
  });

  it('migrates, creates and lists accounts, and manages keys, for people and for scripts', async () => {
    expect((await cli(['migrate', '--json'], env)).stdout.trim()).toBe('{"migrated":true,"store":"sqlite"}');
    const created = await cli(['accounts', 'create', 'acme', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const account = JSON.parse(created.stdout) as { Id: number; Name: string; ApiKey: string };
    expect(account).toMatchObject({ Id: 1, Name: 'acme' });
    expect((await cli(['accounts', 'list'], env)).stdout).toMatch(/^1\tacme\tbalance 100$/m);

    const key = JSON.parse((await cli(['keys', 'create', '--account', '1', '--role', 'ReadOnly', '--json'], env)).stdout) as { Id: number; Roles: string[] };
    expect(key.Roles).toEqual(['ReadOnly']);
    const listed = JSON.parse((await cli(['keys', 'list', '--account', '1', '--json'], env)).stdout) as { Key: string }[];
    expect(listed.map((k) => k.Key)).toContain(account.ApiKey);
    expect((await cli(['keys', 'revoke', '--account', '1', String(key.Id)], env)).stdout).toMatch(/revoked/);
    expect(JSON.parse((await cli(['keys', 'list', '--account', '1', '--json'], env)).stdout)).toHaveLength(1);
  });

  it('drives the operator events: balance, usage, suspension', async () => {
    const created = JSON.parse((await cli(['accounts', 'create', 'ops', '--json'], env)).stdout) as { Id: number; ApiKey: string };
    const balance = await cli(['accounts', 'balance', String(created.Id), '0', '--json'], env);
    expect(JSON.parse(balance.stdout)).toMatchObject({ Id: created.Id, Balance: 0 });
    const missing = await cli(['pullzones', 'suspend', '999'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/pull zone was not found/);
    expect((await cli(['pullzones', 'usage', '1'], env)).code).toBe(2);
  });

  it('exits 2 on a usage error and 1 on bad configuration, with a message', async () => {
    const usage = await cli(['frobnicate'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/unknown command frobnicate/);
    expect((await cli(['keys', 'list'], env)).code).toBe(2);
    const bad = await cli(['migrate', '--port', 'eighty'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/PORT/);
  });
});
