/**
 * The composition root as the server uses it (src/serve.ts `startServer` over src/runtime.ts): the
 * planes share one runtime, and the API is a plane like the others, built only when it listens
 * (or a seed asks for it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../src/config.js';
import { type RunningServer, startServer } from '../../src/serve.js';

const KEY = 'bootstrap-key-0123456789';
let dir: string;
let server: RunningServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-root-'));
  // The start-up lines go to stdout; keep them out of the test's output.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const config = (ports: { port: number | 'off'; storagePort: number | 'off' }) =>
  readConfig(
    {},
    {
      databaseUrl: `sqlite:${join(dir, 'db.sqlite')}`,
      bootstrapKey: KEY,
      edgePort: 'off',
      edgeTlsPort: 'off',
      dnsPort: 'off',
      s3Port: 'off',
      videoPort: 'off',
      loggingPort: 'off',
      host: '127.0.0.1',
      ...ports,
    },
  );

describe('the composition root', () => {
  it('builds no API app when PORT=off, and the other planes serve over the runtime', async () => {
    server = await startServer(config({ port: 'off', storagePort: 0 }), pino({ level: 'silent' }));
    expect(server.api).toBeUndefined();
    expect(server.planes.map((p) => p.name)).toEqual(['storage']);
    // The runtime made the first account (the bootstrap key) without an API, and the storage plane sees the store.
    expect(await server.runtime.services.apiKeys.authenticate(KEY)).toBeTruthy();
    const res = await fetch(`${server.planes[0]!.url}/no-such-zone/a.txt`, { headers: { AccessKey: 'wrong' } });
    expect(res.status).toBe(401);
  });

  it('builds the API over the same runtime and opens it last', async () => {
    server = await startServer(config({ port: 0, storagePort: 0 }), pino({ level: 'silent' }));
    expect(server.api?.services).toBe(server.runtime.services);
    expect(server.planes.map((p) => p.name)).toEqual(['storage', 'api']);
    const res = await fetch(`${server.planes[1]!.url}/_edgeplane/health`);
    expect(await res.json()).toMatchObject({ status: 'ok', planes: { api: 'ok', storage: 'ok', edge: 'off' } });
  });
});
