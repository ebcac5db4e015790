/**
 * A write is answered once it is durable, and its audit entry shares its commit: one group commit
 * (one disk sync) per sequential write instead of two. A write whose commit fails after its
 * operation succeeded is answered 500, never 2xx. SQLite's batches make both observable (its
 * COMMIT count); PostgreSQL commits each transaction before it resolves.
 */
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqliteStats } from '../../src/store/sqlite/sqlite-store.js';
import type { Durability, StoreTx } from '../../src/store/types.js';
import { createTestApp, expectErrorBody, type TestContext } from '../helpers/app.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({}, { storeKind: 'sqlite' });
});
afterEach(async () => {
  await t.close();
});

const commits = () => (t.store.stats() as SqliteStats).commits;

/** Runs `request` alone and answers its status with the COMMITs it took. */
async function measured(request: () => Promise<{ status: number; body: any }>) {
  const before = commits();
  const res = await request();
  return { status: res.status, commits: commits() - before, body: res.body };
}

const auditActions = async () => ((await t.get('/user/audit/2026-01-01?Order=Ascending')).body.Logs as { Action: string }[]).map((e) => e.Action);

describe('a write and its audit entry, one commit', () => {
  it('for each family of the API: created, changed and deleted with one COMMIT each, every write in the audit log', async () => {
    const zone = await measured(() => t.post('/storagezone', { Name: 'durable-zone', Region: 'DE' }));
    expect([zone.status, zone.commits]).toEqual([201, 1]);
    expect(await measured(() => t.post(`/storagezone/${zone.body.Id}`, { Rewrite404To200: true }))).toMatchObject({ status: 204, commits: 1 });
    expect(await measured(() => t.del(`/storagezone/${zone.body.Id}`))).toMatchObject({ status: 204, commits: 1 });

    const pull = await measured(() => t.post('/pullzone', { Name: 'durable-pull', OriginUrl: 'https://origin.example.com' }));
    expect([pull.status, pull.commits]).toEqual([201, 1]);
    expect(await measured(() => t.post(`/pullzone/${pull.body.Id}`, { MonthlyBandwidthLimit: 5000 }))).toMatchObject({ status: 200, commits: 1 });

    const dns = await measured(() => t.post('/dnszone', { Domain: 'durable.example' }));
    expect([dns.status, dns.commits]).toEqual([201, 1]);
    const record = await measured(() => t.put(`/dnszone/${dns.body.Id}/records`, { Type: 0, Name: 'www', Value: '192.0.2.1', Ttl: 300 }));
    expect([record.status, record.commits]).toEqual([201, 1]);

    const library = await measured(() => t.post('/videolibrary', { Name: 'durable-library' }));
    expect([library.status, library.commits]).toEqual([201, 1]);

    const key = await measured(() => t.post('/apikey', { Roles: ['ReadOnly'] }));
    expect([key.status, key.commits]).toEqual([201, 1]);
    expect(await measured(() => t.del(`/apikey/${key.body.Id}`))).toMatchObject({ status: 204, commits: 1 });

    expect(await auditActions()).toEqual([
      'createStorageZone',
      'updateStorageZone',
      'deleteStorageZone',
      'createPullZone',
      'updatePullZone',
      'createDnsZone',
      'addDnsRecord',
      'createVideoLibrary',
      'createApiKey',
      'revokeApiKey',
    ]);
  });

  it('answers 500 for a write whose commit fails after its operation succeeded, and keeps nothing of it', async () => {
    const db = (t.store as unknown as { db: Database.Database }).db;
    const original = t.store.transaction.bind(t.store);
    let sabotage = true;
    t.store.transaction = <T>(work: (tx: StoreTx) => Promise<T>, durability?: Durability) =>
      original(async (tx) => {
        const result = await work(tx);
        if (sabotage) {
          sabotage = false;
          // A foreign key checked only at COMMIT: the operation is done, its batch cannot commit.
          db.pragma('defer_foreign_keys = ON');
          await tx.apiKeys.create({ accountId: 999_999, kind: 'personal', roles: [], lookupHash: 'orphan', sealedKey: 's', createdAt: '' });
        }
        return result;
      }, durability);

    const res = await t.post('/storagezone', { Name: 'never-kept', Region: 'DE' });
    expectErrorBody(res, 500);
    expect((await t.get('/storagezone?search=never-kept')).body).toEqual([]);
    expect(await auditActions()).not.toContain('createStorageZone');

    // The next write commits as usual.
    expect((await t.post('/storagezone', { Name: 'kept', Region: 'DE' })).status).toBe(201);
    expect(await auditActions()).toContain('createStorageZone');
  });
});
