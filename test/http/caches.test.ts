/**
 * Authenticated keys and pull zone answers are kept in memory when the store can vouch for them
^ * These tests prove a cached value never outlives the data it came from: whoever changes
 * it — a request of this app, another process on the same store, a reset — the next request sees
 * the change. On PostgreSQL nothing is cached and the same expectations hold.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { buildApiOver, createTestApp, type TestContext } from '../helpers/app.js';
import { testStoreKind } from '../helpers/store.js';
import { within } from '../helpers/within.js';
import { createZone } from './pull-zones/support.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ adminToken: 'operator-token-for-tests-0123456789' });
});
afterEach(async () => t.close());

/** A second app on the same store, as a second process would be. */
async function secondApp() {
  const opened = await t.openStore();
  const app = await buildApiOver({ config: t.config, store: opened, masterKey: t.masterKey, clock: t.clock.read });
  return {
    app,
    close: async () => {
      await app.close();
      await opened.close();
    },
  };
}

describe('cached API keys', { timeout: 60_000 }, () => {
  it('a key revoked through the API stops working on the next request', async () => {
    const created = await t.post('/apikey', { Roles: ['FullAccess'] });
    const key = created.body.Key as string;
    expect((await t.get('/pullzone', key)).status).toBe(200);
    expect((await t.get('/pullzone', key)).status).toBe(200);
    expect((await t.del(`/apikey/${created.body.Id}`)).status).toBe(204);
    expect((await t.get('/pullzone', key)).status).toBe(401);
  });

  it('a key revoked by the command line in another process stops working on the next request', async () => {
    const created = await t.post('/apikey', { Roles: ['FullAccess'] });
    const key = created.body.Key as string;
    expect((await t.get('/pullzone', key)).status).toBe(200);
    const revoked = await cli(['keys', 'revoke', '--account', String(t.accountId), String(created.body.Id)], {
      DATABASE_URL: t.databaseUrl,
      EDGEPLANE_MASTER_KEY: t.masterKey.toString('hex'),
    });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await t.get('/pullzone', key)).status).toBe(401);
    expect((await t.get('/pullzone')).status).toBe(200);
  });

  it('an unknown key is not remembered as unknown: issued later (as a seed does), it works at once', async () => {
    const wanted = 'a'.repeat(64);
    expect((await t.get('/pullzone', wanted)).status).toBe(401);
    await t.store.transaction((tx) => t.app.services.apiKeys.issue(tx, t.accountId, 'personal', ['FullAccess'], wanted));
    expect((await t.get('/pullzone', wanted)).status).toBe(200);
  });
});

describe('cached pull zone answers', { timeout: 60_000 }, () => {
  it('an update is visible on the next read, with and without certificates', async () => {
    const zone = await createZone(t, 'cached-zone');
    expect((await t.get(`/pullzone/${zone.Id}`)).body.CacheControlMaxAgeOverride).toBe(zone.CacheControlMaxAgeOverride);
    expect((await t.get(`/pullzone/${zone.Id}?includeCertificate=true`)).status).toBe(200);
    expect((await t.post(`/pullzone/${zone.Id}`, { CacheControlMaxAgeOverride: 1234 })).status).toBe(200);
    expect((await t.get(`/pullzone/${zone.Id}`)).body.CacheControlMaxAgeOverride).toBe(1234);
    expect((await t.get(`/pullzone/${zone.Id}?includeCertificate=true`)).body.CacheControlMaxAgeOverride).toBe(1234);
  });

  it('answers with and without certificates are kept apart', async () => {
    const zone = await createZone(t, 'cert-zone');
    const plain = await t.get(`/pullzone/${zone.Id}`);
    const withCerts = await t.get(`/pullzone/${zone.Id}?includeCertificate=true`);
    const again = await t.get(`/pullzone/${zone.Id}`);
    expect(again.body).toEqual(plain.body);
    expect(withCerts.status).toBe(200);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('a cached zone is never served to another account', async () => {
    const zone = await createZone(t, 'private-zone');
    expect((await t.get(`/pullzone/${zone.Id}`)).status).toBe(200);
    const other = await t.newAccount();
    expect((await t.get(`/pullzone/${zone.Id}`, other.key)).status).toBe(404);
  });

  it('a deleted zone answers 404 at once', async () => {
    const zone = await createZone(t, 'short-lived');
    expect((await t.get(`/pullzone/${zone.Id}`)).status).toBe(200);
    expect((await t.del(`/pullzone/${zone.Id}`)).status).toBe(204);
    expect((await t.get(`/pullzone/${zone.Id}`)).status).toBe(404);
  });

  it('a change made by another process on the same store is visible on the next read (PostgreSQL: within a second)', async () => {
    const zone = await createZone(t, 'shared-zone');
    expect((await t.get(`/pullzone/${zone.Id}`)).body.OriginUrl).toBe(zone.OriginUrl);
    const other = await secondApp();
    try {
      const updated = await other.app.inject({
        method: 'POST',
        url: `/pullzone/${zone.Id}`,
        headers: { accesskey: t.key, 'content-type': 'application/json' },
        payload: JSON.stringify({ OriginUrl: 'https://elsewhere.example' }),
      });
      expect(updated.statusCode).toBe(200);
    } finally {
      await other.close();
    }
    const seen = async () => (await t.get(`/pullzone/${zone.Id}`)).body.OriginUrl === 'https://elsewhere.example';
    // SQLite notices another process's write through its data version before the next read; another
    // PostgreSQL instance's write arrives as an announcement, within a second.
    if (testStoreKind() === 'sqlite') expect(await seen()).toBe(true);
    else await within(1000, seen);
  });

  it('after an operator reset, a new zone with the same id is read afresh', async () => {
    const zone = await createZone(t, 'before-reset');
    expect((await t.get(`/pullzone/${zone.Id}`)).body.Name).toBe('before-reset');
    const reset = await t.request('POST', '/_edgeplane/reset', {}, null, { authorization: 'Bearer operator-token-for-tests-0123456789' });
    expect(reset.status).toBe(200);
    const account = await t.app.services.accounts.create('after');
    const again = await createZone(t, 'after-reset', {}, account.apiKey);
    expect(again.Id).toBe(zone.Id);
    const read = await t.get(`/pullzone/${zone.Id}`, account.apiKey);
    expect(read.body.Name).toBe('after-reset');
  });
});
