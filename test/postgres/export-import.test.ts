/**
 * `edgeplane export` / `edgeplane import` move a whole store between SQLite and PostgreSQL: a
 * store filled through the API is exported from SQLite, imported into PostgreSQL, and serves the
 * same resources and keys there; exported again and imported into a fresh SQLite, the dump is the
 * same.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { cli } from '../helpers/cli.js';
import { testStoreLocation } from '../helpers/store.js';

const masterKey = randomBytes(32);
let dir: string;
let source: TestContext;
const created: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-dump-'));
  source = await createTestApp({}, { storeKind: 'sqlite', masterKey });
  const sz = await source.post('/storagezone', { Name: 'dump-files', Region: 'NY', ReplicationRegions: ['DE'] });
  const pz = await source.post('/pullzone', { Name: 'dump-site', StorageZoneId: sz.body.Id });
  const dns = await source.post('/dnszone', { Domain: 'dump.example' });
  await source.put(`/dnszone/${dns.body.Id}/records`, { Type: 0, Name: 'www', Value: '192.0.2.1' });
  await source.put(`/dnszone/${dns.body.Id}/records`, { Type: 7, Name: 'cdn', PullZoneId: pz.body.Id });
  const lib = await source.post('/videolibrary', { Name: 'dump-lib' });
  const app = await source.post('/mc/apps', {
    name: 'dump app',
    runtimeType: 'shared',
    autoScaling: { min: 1, max: 1 },
    regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
  });
  await source.post('/apikey', { Roles: ['ReadOnly'] });
  const at = Date.UTC(2026, 0, 1);
  const labels = '{"ErrorCode":"dns_lookup"}';
  const error = { pullZoneId: pz.body.Id, at, logId: 'dump-error', code: 'dns_lookup', status: 502, message: 'no such name', url: '/x', labels };
  await source.store.originErrors.append([{ accountId: source.accountId, ...error }]);
  Object.assign(created, {
    [`/storagezone/${sz.body.Id}`]: '',
    [`/pullzone/${pz.body.Id}?includeCertificate=true`]: '',
    [`/dnszone/${dns.body.Id}`]: '',
    [`/videolibrary/${lib.body.Id}`]: '',
    [`/mc/apps/${app.body.id}`]: '',
    ['/apikey']: '',
  });
  for (const path of Object.keys(created)) created[path] = JSON.stringify((await source.get(path)).body);
}, 60_000);
afterAll(async () => {
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (databaseUrl: string) => ({ DATABASE_URL: databaseUrl, EDGEPLANE_MASTER_KEY: masterKey.toString('hex') });

describe('export and import', () => {
  it('moves a store from SQLite to PostgreSQL and back, losing nothing', async () => {
    const first = join(dir, 'first.jsonl');
    const exported = await cli(['export', first, '--json'], env(source.databaseUrl));
    expect(exported.code, exported.stderr).toBe(0);
    const count = (JSON.parse(exported.stdout) as { exported: number }).exported;
    expect(count).toBeGreaterThan(8);

    const target = await createTestApp({}, { storeKind: 'postgres', masterKey });
    try {
      // The test app created an account already; import needs an empty store.
      const refused = await cli(['import', first], env(target.databaseUrl));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/not empty/);
    } finally {
      await target.close();
    }

    const pgEmpty = await testStoreLocation(join(dir, 'unused'), 'postgres');
    try {
      const imported = await cli(['import', first, '--json'], env(pgEmpty.databaseUrl));
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toEqual({ imported: count - 1 });

      const onPg = await createTestApp({}, { masterKey, location: pgEmpty });
      try {
        for (const [path, body] of Object.entries(created)) {
          const res = await onPg.get(path, source.key);
          expect(res.status, path).toBe(200);
          expect(JSON.stringify(res.body), path).toBe(body);
        }
        // Ids continue after the imported ones.
        const next = await onPg.post('/pullzone', { Name: 'after-import', OriginUrl: 'https://o.example' }, source.key);
        expect(next.status).toBe(201);
        expect(next.body.Id).toBeGreaterThan(JSON.parse(created[Object.keys(created)[1]!]!).Id);
      } finally {
        await onPg.close();
      }

      const second = join(dir, 'second.jsonl');
      expect((await cli(['export', second], env(pgEmpty.databaseUrl))).code).toBe(0);
      const back = join(dir, 'back.sqlite');
      expect((await cli(['import', second], env(`sqlite:${back}`))).code).toBe(0);
      const third = join(dir, 'third.jsonl');
      expect((await cli(['export', third], env(`sqlite:${back}`))).code).toBe(0);
      const body = (file: string) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l && !l.includes('"header"') && !l.includes('"sequence"'));
      // Everything of the first dump came back unchanged (plus what was created on PostgreSQL).
      expect(body(first).length).toBeGreaterThan(8);
      expect(body(first).filter((l) => l.includes('"type":"originError"'))).toHaveLength(1);
      expect(body(third)).toEqual(expect.arrayContaining(body(first)));
    } finally {
      await pgEmpty.destroy();
    }
  }, 120_000);
});
