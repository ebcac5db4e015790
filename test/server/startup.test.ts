import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server-process.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-start-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const get = (base: string, path: string, key: string) => fetch(base + path, { headers: { AccessKey: key } });

describe('npm start', () => {
  it('creates the first account with EDGEPLANE_BOOTSTRAP_KEY, which works everywhere, /mc included', async () => {
    const key = 'bootstrap-key-0123456789';
    const server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, EDGEPLANE_BOOTSTRAP_KEY: key });
    try {
      const keys = await (await get(server.base, '/apikey', key)).json();
      expect(keys).toEqual({ Items: [{ Id: 1, Key: key, Roles: ['FullAccess'] }], CurrentPage: 1, TotalItems: 1, HasMoreItems: false });
      const app = await fetch(`${server.base}/mc/apps`, {
        method: 'POST',
        headers: { AccessKey: key, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'a',
          runtimeType: 'shared',
          autoScaling: { min: 1, max: 1 },
          regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
        }),
      });
      expect(app.status).toBe(201);
      expect(server.stdout()).not.toContain(key);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('prints a generated key once, keeps it across restarts, and keeps the master key file private', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}` };
    let server = await startServer(env);
    const match = /API key \(shown once\): (\S+)/.exec(server.stdout());
    expect(match).not.toBeNull();
    const key = match![1]!;
    expect((await get(server.base, '/apikey', key)).status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(statSync(join(dir, 'master.key')).mode & 0o777).toBe(0o600);

    server = await startServer(env);
    try {
      expect(server.stdout()).not.toContain('shown once');
      expect((await get(server.base, '/apikey', key)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('refuses a bad configuration with exit code 1 and a message naming the variable', async () => {
    const failure = await startServer({ PORT: 'eighty' }).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toMatch(/PORT/);
  });
});
