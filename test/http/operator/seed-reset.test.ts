import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSeed, SeedError, applySeed } from '../../../src/seed/apply.js';
import { prepareStore } from '../../../src/seed/prepare.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';

const TOKEN = 'operator-token-0123456789';
const SEED = new URL('../../../docs/examples/seed.json', import.meta.url).pathname;
const FULL = 'acme-full-access-key-0001';
const READ_ONLY = 'acme-read-only-key-00001';

let t: TestContext;
let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeplane-seed-'));
  t = await createTestApp({ adminToken: TOKEN, seed: SEED, bootstrapKey: 'bootstrap-key-000000001' });
});
afterEach(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const reset = (to?: string) => t.request('POST', '/_edgeplane/reset', to === undefined ? {} : { to }, null, { authorization: `Bearer ${TOKEN}` });

async function seededState(key = FULL) {
  const keys = await t.get('/apikey', key);
  const zone = await t.get('/storagezone/1', key);
  const pull = await t.get('/pullzone/1', key);
  const dns = await t.get('/dnszone/1', key);
  return { keys: keys.body.TotalItems, zone: zone.body.Name, pullStorage: pull.body.StorageZoneId, records: dns.body.Records?.length };
}

describe('seed files', () => {
  it("creates the accounts, keys and resources in the API's own shapes, and links by name", async () => {
    const result = await prepareStore(t.app.services, t.config, t.app);
    expect(result.seed).toMatchObject({ accounts: 1, created: 8, skipped: 0 });
    expect(await seededState()).toEqual({ keys: 3, zone: 'acme-assets', pullStorage: 1, records: 2 });
    expect((await t.post('/pullzone', { Name: 'x', OriginUrl: 'https://o.example' }, READ_ONLY)).status).toBe(403);
    const accounts = await t.request('GET', '/_edgeplane/accounts', undefined, null, { authorization: `Bearer ${TOKEN}` });
    expect(accounts.body.find((a: { Name: string }) => a.Name === 'acme').Balance).toBe(250);
  });

  it('can be applied again without creating anything twice', async () => {
    await prepareStore(t.app.services, t.config, t.app);
    const again = await applySeed(t.app, readSeed(SEED));
    expect(again).toEqual({ accounts: 0, created: 0, skipped: 8 });
    expect(await seededState()).toEqual({ keys: 3, zone: 'acme-assets', pullStorage: 1, records: 2 });
    // The video library made storage zone 2; a second apply would have made a third.
    expect((await t.get('/storagezone/3', FULL)).status).toBe(404);
  });

  it('names the offending path of a malformed seed', () => {
    const write = (content: unknown) => {
      const file = join(dir, `seed-${Math.random()}.json`);
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
      return file;
    };
    expect(() => readSeed(write('{ not json'))).toThrow(SeedError);
    expect(() => readSeed(write({ accounts: [{ name: 'a', apiKeys: [{ key: 'short' }] }] }))).toThrow(/accounts\[0\]\.apiKeys\[0\]\.key/);
    expect(() => readSeed(write({ accounts: [{ name: 'a', pullzones: [] }] }))).toThrow(/accounts\[0\]/);
  });

  it('names the field of a resource the API rejects', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({ accounts: [{ name: 'b', pullZones: [{ Name: 'ok-zone', OriginUrl: 'https://o.example', OptimizerImageQuality: 101 }] }] }),
    );
    await expect(applySeed(t.app, readSeed(file))).rejects.toThrow('accounts[0].pullZones[0].OptimizerImageQuality');
  });
});

describe('POST /_edgeplane/reset', () => {
  it('empties the store, keeping the bootstrap account', async () => {
    await prepareStore(t.app.services, t.config, t.app);
    const res = await reset('empty');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ to: 'empty', accounts: 1, created: 0 });
    expectErrorBody(await t.get('/apikey', FULL), 401);
    const boot = await t.get('/apikey', 'bootstrap-key-000000001');
    expect(boot.body.TotalItems).toBe(1);
    expect((await t.get('/storagezone/1', 'bootstrap-key-000000001')).status).toBe(404);
  });

  it('puts the seed back, with ids starting over', async () => {
    await prepareStore(t.app.services, t.config, t.app);
    await t.post('/storagezone', { Name: 'extra', Region: 'DE' }, FULL);
    await t.post('/apikey', {}, FULL);
    const res = await reset('seed');
    expect(res.body).toEqual({ to: 'seed', accounts: 2, created: 8 });
    expect(await seededState()).toEqual({ keys: 3, zone: 'acme-assets', pullStorage: 1, records: 2 });
  });

  it('is atomic: concurrent requests see the state before or after, never half', async () => {
    await prepareStore(t.app.services, t.config, t.app);
    for (let i = 0; i < 5; i++) await t.post('/apikey', {}, FULL);
    const readers = Array.from({ length: 40 }, () => t.get('/apikey', FULL));
    const [, ...seen] = await Promise.all([reset('seed'), ...readers]);
    for (const res of seen) {
      expect(res.status).toBe(200);
      expect([3, 8]).toContain(res.body.TotalItems);
    }
    expect((await t.get('/apikey', FULL)).body.TotalItems).toBe(3);
  });

  it('refuses to reset to a seed when none is configured, and needs the operator token', async () => {
    const bare = await createTestApp({ adminToken: TOKEN });
    try {
      const res = await bare.request('POST', '/_edgeplane/reset', { to: 'seed' }, null, { authorization: `Bearer ${TOKEN}` });
      expectErrorBody(res, 400);
      expect(res.body.Field).toBe('to');
      expectErrorBody(await bare.request('POST', '/_edgeplane/reset', {}, bare.key), 401);
    } finally {
      await bare.close();
    }
  });
});
