/**
 * The change feed across instances on one PostgreSQL: what one instance writes, the other's
 * in-memory caches (authenticated keys, pull zone answers) drop within a second — also when the
 * other instance's listening connection was dropped and had to come back.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PgChangeFeed } from '../../src/store/postgres/changes.js';
import type { Store } from '../../src/store/types.js';
import { buildApiOver, createTestApp, type TestContext } from '../helpers/app.js';
import { admin, testStoreBeside } from '../helpers/store.js';
import { within } from '../helpers/within.js';

let a: TestContext;
let storeB: Store;
let b: FastifyInstance;

beforeEach(async () => {
  a = await createTestApp({}, { storeKind: 'postgres' });
  storeB = await a.openStore();
  b = await buildApiOver({ config: a.config, store: storeB, masterKey: a.masterKey, clock: a.clock.read });
});
afterEach(async () => {
  await b.close();
  await storeB.close();
  await a.close();
});

const onB = (url: string, key: string) => b.inject({ method: 'GET', url, headers: { accesskey: key } });

/** Ends instance B's listening connection, as a network failure or a database restart would. */
async function dropFeedOf(store: Store): Promise<void> {
  const instance = (store.changes as PgChangeFeed).instance;
  const ended = await admin((c) =>
    c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [`edgeplane-feed-${instance}`]),
  );
  expect(ended.rowCount).toBe(1);
}

describe('the change feed on PostgreSQL', () => {
  it('makes a key revoked on one instance fail on the other within a second', async () => {
    const issued = (await a.post('/apikey', { Roles: ['FullAccess'] })).body as { Id: number; Key: string };
    // Authenticated twice on B: the second answer comes from B's memory.
    expect((await onB('/apikey', issued.Key)).statusCode).toBe(200);
    expect((await onB('/apikey', issued.Key)).statusCode).toBe(200);
    expect((await a.del(`/apikey/${issued.Id}`)).status).toBe(204);
    await within(1000, async () => (await onB('/apikey', issued.Key)).statusCode === 401);
  });

  it("drops the other instance's cached pull zone answer within a second of an update", async () => {
    const zone = (await a.post('/pullzone', { Name: 'feed-zone', OriginUrl: 'https://before.example' })).body as { Id: number };
    const origin = async () => JSON.parse((await onB(`/pullzone/${zone.Id}`, a.key)).body).OriginUrl as string;
    expect(await origin()).toBe('https://before.example');
    expect(await origin()).toBe('https://before.example');
    expect((await a.post(`/pullzone/${zone.Id}`, { OriginUrl: 'https://after.example' })).status).toBe(200);
    await within(1000, async () => (await origin()) === 'https://after.example');
  });

  it('still sees a revocation within a second after its connection was dropped and came back', async () => {
    const first = (await a.post('/apikey', { Roles: ['FullAccess'] })).body as { Id: number; Key: string };
    const second = (await a.post('/apikey', { Roles: ['FullAccess'] })).body as { Id: number; Key: string };
    for (const key of [first.Key, first.Key, second.Key, second.Key]) expect((await onB('/apikey', key)).statusCode).toBe(200);

    // Revoked while B's connection is down: the announcement is lost, B must not trust its memory.
    await dropFeedOf(storeB);
    expect((await a.del(`/apikey/${first.Id}`)).status).toBe(204);
    await within(1000, async () => (await onB('/apikey', first.Key)).statusCode === 401);

    // And once it listens again, announcements reach it as before.
    await within(
      2000,
      async () =>
        (
          await admin((c) =>
            c.query("SELECT 1 FROM pg_stat_activity WHERE application_name LIKE 'edgeplane-feed-%' AND application_name = $1", [
              `edgeplane-feed-${(storeB.changes as PgChangeFeed).instance}`,
            ]),
          )
        ).rowCount === 1,
    );
    expect((await onB('/apikey', second.Key)).statusCode).toBe(200);
    expect((await onB('/apikey', second.Key)).statusCode).toBe(200);
    expect((await a.del(`/apikey/${second.Id}`)).status).toBe(204);
    await within(1000, async () => (await onB('/apikey', second.Key)).statusCode === 401);
  });

  it('keeps announcements of other schemas (other stores on the same database) apart', async () => {
    const beside = await testStoreBeside(a.databaseUrl);
    const other = await createTestApp({}, { location: beside });
    try {
      const generation = storeB.changes.generation();
      await other.post('/pullzone', { Name: 'elsewhere', OriginUrl: 'https://o.example' });
      await other.del('/apikey/1');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(storeB.changes.generation()).toBe(generation);
    } finally {
      await other.close();
      await beside.destroy();
    }
  });

  it('hands out ids from the restarted sequence on both instances after a wipe by one, never a clash', async () => {
    // B draws a block of ids ahead; A's wipe restarts the sequence under it.
    expect(await storeB.nextId('feedTest')).toBe(1);
    expect(await storeB.nextId('feedTest')).toBe(2);
    const heard = new Promise<void>((resolve) => storeB.changes.subscribe((change) => change.type === 'all' && resolve()));
    await a.store.wipe();
    await heard;
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await (i % 2 ? storeB : a.store).nextId('feedTest'));
    expect(new Set(ids).size).toBe(6);
    expect(Math.min(...ids)).toBe(1);
  });
});
