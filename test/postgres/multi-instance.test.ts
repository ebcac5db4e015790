/**
 * Several edgeplane instances on one PostgreSQL: what one acknowledges the other reads at once,
 * unique names stay unique under concurrent creation, and a database restart under load gives
 * clients 503s (never a hang, never wrong data) until the service recovers by itself.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownPostgres, type OwnPostgres } from '../helpers/own-postgres.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

const KEY = 'multi-instance-key-0123456789';
let db: OwnPostgres;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  db = await ownPostgres();
  const env = {
    DATABASE_URL: db.url,
    EDGEPLANE_BOOTSTRAP_KEY: KEY,
    EDGEPLANE_MASTER_KEY: randomBytes(32).toString('hex'),
    EDGEPLANE_DB_STATEMENT_TIMEOUT_MS: '2000',
    // One files backend both instances see, as PostgreSQL requires.
    EDGEPLANE_FILES_URL: `file:${mkdtempSync(join(tmpdir(), 'edgeplane-multi-files-'))}`,
    LOG_LEVEL: 'warn',
  };
  // Started together: migrations and the first account must happen once.
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.destroy();
});

const call = (server: ServerProcess, method: string, path: string, body?: unknown) =>
  fetch(server.base + path, {
    method,
    headers: { AccessKey: KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });

describe('two instances on one PostgreSQL', () => {
  it('created one account, and each reads at once what the other wrote', async () => {
    const keys = (await (await call(a, 'GET', '/apikey')).json()) as { TotalItems: number };
    expect(keys.TotalItems).toBe(1);
    const created = (await (await call(a, 'POST', '/storagezone', { Name: 'seen-by-b', Region: 'NY' })).json()) as { Id: number };
    const read = await call(b, 'GET', `/storagezone/${created.Id}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { Name: string }).Name).toBe('seen-by-b');
  });

  it('lets exactly one of two concurrent creates of the same name win', async () => {
    for (let i = 0; i < 20; i++) {
      const name = `race-${i}`;
      const [ra, rb] = await Promise.all([
        call(a, 'POST', '/pullzone', { Name: name, OriginUrl: 'https://o.example' }),
        call(b, 'POST', '/pullzone', { Name: name, OriginUrl: 'https://o.example' }),
      ]);
      expect([ra.status, rb.status].sort()).toEqual([201, 400]);
      const loser = (await (ra.status === 400 ? ra : rb).json()) as { Field: string; status: number };
      expect(loser).toMatchObject({ Field: 'Name', status: 400 });
    }
  });

  it('gives unique ids to concurrent creates on both instances', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => call(i % 2 ? a : b, 'POST', '/storagezone', { Name: `ids-${i}`, Region: 'DE' })));
    const ids = await Promise.all(results.map(async (r) => ((await r.json()) as { Id: number }).Id));
    expect(new Set(ids).size).toBe(30);
  });

  it('loses no field when both instances update one pull zone at the same time', async () => {
    const zone = (await (await call(a, 'POST', '/pullzone', { Name: 'shared-zone', OriginUrl: 'https://o.example' })).json()) as { Id: number };
    // Each instance sets different fields of the same zone, many times, all at once.
    const writes = Array.from({ length: 20 }, (_, i) =>
      i % 2
        ? call(a, 'POST', `/pullzone/${zone.Id}`, { OriginRetries: i, [`EnableGeoZone${['US', 'EU', 'ASIA', 'SA', 'AF'][i % 5]}`]: false })
        : call(b, 'POST', `/pullzone/${zone.Id}`, { OptimizerImageQuality: 10 + i, BlockedCountries: [`C${i}`.slice(0, 2)] }),
    );
    const results = await Promise.all(writes);
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const final = (await (await call(a, 'GET', `/pullzone/${zone.Id}`)).json()) as Record<string, unknown>;
    // The last write of each instance's fields is there; every geo zone one of them switched off is off.
    expect([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]).toContain(final['OriginRetries']);
    expect([10, 12, 14, 16, 18, 20, 22, 24, 26, 28]).toContain(final['OptimizerImageQuality']);
    for (const geo of ['US', 'EU', 'ASIA', 'SA', 'AF']) expect(final[`EnableGeoZone${geo}`]).toBe(false);
  }, 60_000);

  it('answers 503 while the database is down, never hangs, and recovers by itself', async () => {
    await db.stop();
    const started = Date.now();
    const during = await Promise.all([call(a, 'GET', '/apikey'), call(b, 'POST', '/storagezone', { Name: 'while-down', Region: 'DE' })]);
    for (const res of during) {
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
    }
    expect(Date.now() - started).toBeLessThan(9_000);
    expect((await fetch(`${a.base}/_edgeplane/health`)).status).toBe(503);

    await db.start();
    let recovered = false;
    for (let i = 0; i < 50 && !recovered; i++) {
      recovered = (await call(a, 'GET', '/apikey').catch(() => undefined))?.status === 200;
      if (!recovered) await new Promise((r) => setTimeout(r, 200));
    }
    expect(recovered).toBe(true);
    expect((await call(b, 'POST', '/storagezone', { Name: 'after-restart', Region: 'DE' })).status).toBe(201);
    expect((await call(a, 'GET', '/storagezone/1')).status).toBe(200);
  }, 60_000);
});
