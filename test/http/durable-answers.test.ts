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
    const answers: { status: number; commits: number }[] = [];
    const write = async (request: () => Promise<{ status: number; body: any }>) => {
      const res = await measured(request);
      answers.push({ status: res.status, commits: res.commits });
      return res.body;
    };
    const zone = await write(() => t.post('/storagezone', { Name: 'durable-zone', Region: 'DE' }));
    await write(() => t.post(`/storagezone/${zone.Id}`, { Rewrite404To200: true }));
    await write(() => t.del(`/storagezone/${zone.Id}`));
    const pull = await write(() => t.post('/pullzone', { Name: 'durable-pull', OriginUrl: 'https://origin.example.com' }));
    await write(() => t.post(`/pullzone/${pull.Id}`, { MonthlyBandwidthLimit: 5000 }));
    const dns = await write(() => t.post('/dnszone', { Domain: 'durable.example' }));
    await write(() => t.put(`/dnszone/${dns.Id}/records`, { Type: 0, Name: 'www', Value: '192.0.2.1', Ttl: 300 }));
    await write(() => t.post('/videolibrary', { Name: 'durable-library' }));
    const key = await write(() => t.post('/apikey', { Roles: ['ReadOnly'] }));
    await write(() => t.del(`/apikey/${key.Id}`));

    expect(answers.map((a) => a.status)).toEqual([201, 204, 204, 201, 200, 201, 201, 201, 201, 204]);
    // One each: the audit entry joined its operation's batch. A batch also closes once it has been
    // open 10 ms (sqlite/group-commit.ts), so on a loaded machine a slow operation may commit before its
    // entry joins: allowed for two of ten. Each in a batch of its own would make twenty.
    expect(answers.every((a) => a.commits >= 1 && a.commits <= 2)).toBe(true);
    expect(answers.reduce((sum, a) => sum + a.commits, 0)).toBeLessThanOrEqual(12);
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

  /**
   * Makes the batch of the next transaction fail at COMMIT, after its work succeeded; `alone`: the
   * work outlasts a batch's 10 ms, so the batch commits (and fails) before anything else joins it.
   */
  function failNextCommit(alone = false): void {
    const db = (t.store as unknown as { db: Database.Database }).db;
    const original = t.store.transaction.bind(t.store);
    let sabotage = true;
    t.store.transaction = <T>(work: (tx: StoreTx) => Promise<T>, durability?: Durability) =>
      original(async (tx) => {
        const result = await work(tx);
        if (sabotage && alone) await new Promise((resolve) => setTimeout(resolve, 15));
        if (sabotage) {
          sabotage = false;
          // A foreign key checked only at COMMIT: the operation is done, its batch cannot commit.
          db.pragma('defer_foreign_keys = ON');
          await tx.apiKeys.create({ accountId: 999_999, kind: 'personal', roles: [], lookupHash: 'orphan', sealedKey: 's', createdAt: '' });
        }
        return result;
      }, durability);
  }

  it('answers 500 for a write whose commit fails after its operation succeeded, and keeps nothing of it', async () => {
    failNextCommit();
    const res = await t.post('/storagezone', { Name: 'never-kept', Region: 'DE' });
    expectErrorBody(res, 500);
    expect((await t.get('/storagezone?search=never-kept')).body).toEqual([]);
    expect(await auditActions()).not.toContain('createStorageZone');

    // The next write commits as usual.
    expect((await t.post('/storagezone', { Name: 'kept', Region: 'DE' })).status).toBe(201);
    expect(await auditActions()).toContain('createStorageZone');
  });

  it('keeps no audit entry for a lost write whose entry missed its batch', async () => {
    failNextCommit(true);
    expectErrorBody(await t.post('/storagezone', { Name: 'lost-alone', Region: 'DE' }), 500);
    expect((await t.get('/storagezone?search=lost-alone')).body).toEqual([]);
    expect(await auditActions()).not.toContain('createStorageZone');
  });

  it('keeps no answer for the Idempotency-Key of a write whose commit failed: the retry runs again', async () => {
    failNextCommit();
    const once = { 'content-type': 'application/json', 'idempotency-key': 'lost-write-1' };
    const body = { Name: 'retried', Region: 'DE' };
    expectErrorBody(await t.request('POST', '/storagezone', body, undefined, once), 500);

    const retry = await t.request('POST', '/storagezone', body, undefined, once);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect((await t.get(`/storagezone/${retry.body.Id}`)).body.Name).toBe('retried');
  });
});
