/**
 * The front door answers cached reads over real HTTP before Fastify (the rest of the suite
 * injects requests, which never reach a server). These tests hold it to its promise: a request it
 * answers gets the slow path's very answer, counted and logged the same way, and every request the
 * slow path would treat differently — a fault, the journal, a throttle, a revoked key, a change —
 * is treated exactly as before.
 */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Config } from '../../src/config.js';
import { loggerOptions } from '../../src/logging.js';
import type { Store, StoreChange } from '../../src/store/types.js';
import { buildApiOver, createTestApp, errorFields, expectErrorBody, type TestContext, type TestResponse } from '../helpers/app.js';
import { createZone } from './pull-zones/support.js';

const TOKEN = 'operator-token-for-front-door-0123';

interface Wire {
  status: number;
  headers: Headers;
  text: string;
}

/** A second app on the test's store, listening, with whatever it logs kept as parsed lines. */
async function listening(t: TestContext, overrides: Partial<Config> = {}) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const store: Store = await t.openStore();
  const app: FastifyInstance = await buildApiOver({
    config: { ...t.config, ...overrides },
    store,
    masterKey: t.masterKey,
    clock: t.clock.read,
    logger: loggerOptions({ logLevel: 'info' }, false, sink),
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const send = vi.spyOn(app.answers, 'send');
  const heard: StoreChange[] = [];
  store.changes.subscribe((change) => heard.push(change));
  const get = async (path: string, key: string | null, headers: Record<string, string> = {}): Promise<Wire> => {
    const res = await fetch(base + path, { headers: { ...(key === null ? {} : { accesskey: key }), ...headers } });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const operator = (method: string, path: string, body?: unknown) =>
    fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    app,
    base,
    get,
    operator,
    lines,
    /** Reads answered by the route's handler, i.e. not by the front door. */
    handled: () => send.mock.calls.length,
    /**
     * Runs `write` through another app on the store and waits until this app has heard of it: on
     * PostgreSQL the announcement comes over its LISTEN connection, a round trip behind the write
     * (a read in between is answered, and may fill the cache, before it is dropped); on SQLite the
     * app hears it at its next look at the file's version.
     */
    hears: async <T>(write: () => Promise<T>): Promise<T> => {
      const from = heard.length;
      const written = await write();
      await vi.waitFor(
        () => {
          store.changes.generation();
          expect(heard.length, 'the app heard of the write').toBeGreaterThan(from);
        },
        { timeout: 5_000, interval: 5 },
      );
      return written;
    },
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

const asResponse = (wire: Wire): TestResponse => ({ status: wire.status, body: JSON.parse(wire.text), headers: Object.fromEntries(wire.headers) });

let t: TestContext;
let server: Awaited<ReturnType<typeof listening>> | undefined;
beforeEach(async () => {
  t = await createTestApp({ adminToken: TOKEN });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await t.close();
});

/** A new zone read twice with the test's key: the miss fills the cache, the front door answers the second read. */
const readTwice = async (s: Awaited<ReturnType<typeof listening>>, name: string) => {
  const zone = await s.hears(() => createZone(t, name));
  expect((await s.get(`/pullzone/${zone.Id}`, t.key)).status).toBe(200);
  expect((await s.get(`/pullzone/${zone.Id}`, t.key)).status).toBe(200);
  expect(s.handled()).toBe(1);
  return zone;
};

const start = async (overrides: Partial<Config> = {}) => {
  server = await listening(t, overrides);
  return server;
};

describe('the front door', { timeout: 60_000 }, () => {
  it("answers a cached read with the slow path's status, headers and bytes, counted and logged alike", async () => {
    const s = await start();
    const zone = await s.hears(() => createZone(t, 'front'));
    const slow = await s.get(`/pullzone/${zone.Id}`, t.key);
    expect(s.handled()).toBe(1);
    const fast = await s.get(`/pullzone/${zone.Id}`, t.key, { 'x-request-id': 'client-chosen.id_1' });
    expect(s.handled(), 'the second read is answered before the handler').toBe(1);

    expect(fast.status).toBe(200);
    expect(fast.text).toBe(slow.text);
    expect(JSON.parse(fast.text).Id).toBe(zone.Id);
    const names = (h: Headers) => [...h.keys()].sort();
    expect(names(fast.headers)).toEqual(names(slow.headers));
    for (const name of ['content-type', 'content-length', 'connection', 'keep-alive']) expect(fast.headers.get(name), name).toBe(slow.headers.get(name));
    expect(fast.headers.get('x-request-id')).toBe('client-chosen.id_1');
    const odd = await s.get(`/pullzone/${zone.Id}`, t.key, { 'x-request-id': 'spaces are odd' });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const completed = s.lines.filter((l) => l['msg'] === 'request completed');
    expect(completed).toHaveLength(3);
    const [slowLine, fastLine] = completed as [Record<string, unknown>, Record<string, unknown>];
    expect(Object.keys(fastLine)).toEqual(Object.keys(slowLine));
    expect(Object.keys(fastLine['req'] as object)).toEqual(Object.keys(slowLine['req'] as object));
    expect({ ...(fastLine['req'] as object), remotePort: 0 }).toEqual({ ...(slowLine['req'] as object), remotePort: 0 });
    expect(fastLine['res']).toEqual({ statusCode: 200 });
    expect(fastLine['reqId']).toBe('client-chosen.id_1');
    expect(typeof fastLine['responseTime']).toBe('number');
    expect(JSON.stringify(s.lines)).not.toContain(t.key);

    const metrics = await (await s.operator('GET', '/_edgeplane/metrics')).text();
    expect(metrics).toContain('edgeplane_http_requests_total{method="GET",route="/pullzone/:id",status="200"} 3');
    expect(metrics).toContain('edgeplane_http_request_duration_seconds_count{method="GET",route="/pullzone/:id",status="200"} 3');
  });

  it('answers a burst of concurrent reads, written together, each with its own zone and request id', async () => {
    const s = await start();
    const zones = [await s.hears(() => createZone(t, 'burst-a')), await s.hears(() => createZone(t, 'burst-b'))];
    for (const zone of zones) expect((await s.get(`/pullzone/${zone.Id}`, t.key)).status).toBe(200);
    const reads = Array.from({ length: 40 }, (_, i) => ({ zone: zones[i % 2]!, id: `burst-${i}` }));
    const answers = await Promise.all(reads.map(({ zone, id }) => s.get(`/pullzone/${zone.Id}`, t.key, { 'x-request-id': id })));
    expect(s.handled(), 'every read of the burst is answered by the front door').toBe(2);
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-request-id')).toBe(reads[i]!.id);
      expect(JSON.parse(answer.text).Id).toBe(reads[i]!.zone.Id);
    });
    expect(s.lines.filter((l) => l['msg'] === 'request completed')).toHaveLength(42);
  });

  it('serves each variant and spelling as the slow path does', async () => {
    const s = await start();
    const zone = await s.hears(() => createZone(t, 'variants'));
    const plain = (await s.get(`/pullzone/${zone.Id}`, t.key)).text;
    for (const path of [`/pullzone/${zone.Id}`, `/PullZone/${zone.Id}/`, `/pullzone/${zone.Id}?`, `/pullzone/${zone.Id}?includeCertificate=false`]) {
      const res = await s.get(path, t.key);
      expect(res.status, path).toBe(200);
      expect(res.text, path).toBe(plain);
    }
    expect(s.handled(), 'one miss, then every spelling of the same read from the cache').toBe(1);
    const withCertificates = await s.get(`/pullzone/${zone.Id}?includeCertificate=true`, t.key);
    expect(withCertificates.status).toBe(200);
    expect(s.handled(), 'the other variant is its own entry').toBe(2);
    expect((await s.get(`/pullzone/${zone.Id}?includeCertificate=true`, t.key)).text).toBe(withCertificates.text);
    expect(s.handled()).toBe(2);
    // Whatever the front door does not know goes the slow way and is answered as before.
    const bad = await s.get(`/pullzone/${zone.Id}?includeCertificate=maybe`, t.key);
    expect(errorFields(asResponse(bad))).toEqual(['includeCertificate']);
    expect((await s.get(`/pullzone/0${zone.Id}`, t.key)).status).toBe(200);
    expect((await s.get(`/pullzone/${zone.Id}`, null)).status).toBe(401);
    expect((await s.get(`/pullzone/${zone.Id}`, 'not-a-key')).status).toBe(401);
  });

  it('never serves another account, a revoked key, or an answer older than a change', async () => {
    const s = await start();
    const zone = await s.hears(() => createZone(t, 'changes'));
    const created = await t.post('/apikey', { Roles: ['FullAccess'] });
    const key = created.body.Key as string;
    expect((await s.get(`/pullzone/${zone.Id}`, key)).status).toBe(200);
    expect((await s.get(`/pullzone/${zone.Id}`, key)).status).toBe(200);
    expect(s.handled()).toBe(1);

    const other = await t.newAccount('other');
    expect((await s.get(`/pullzone/${zone.Id}`, other.key)).status).toBe(404);
    expect((await s.get(`/pullzone/${zone.Id}`, other.key)).status).toBe(404);

    // Changed through the listening app, and through another app on the same store.
    const update = await fetch(`${s.base}/pullzone/${zone.Id}`, {
      method: 'POST',
      headers: { accesskey: t.key, 'content-type': 'application/json' },
      body: JSON.stringify({ CacheControlMaxAgeOverride: 120 }),
    });
    expect(update.status).toBe(200);
    expect(JSON.parse((await s.get(`/pullzone/${zone.Id}`, key)).text).CacheControlMaxAgeOverride).toBe(120);
    expect(s.handled(), 'the change dropped the cached answer').toBe(4);
    expect((await s.hears(() => t.post(`/pullzone/${zone.Id}`, { CacheControlMaxAgeOverride: 240 }))).status).toBe(200);
    expect(JSON.parse((await s.get(`/pullzone/${zone.Id}`, key)).text).CacheControlMaxAgeOverride).toBe(240);

    expect((await s.hears(() => t.del(`/apikey/${created.body.Id}`))).status).toBe(204);
    expect((await s.get(`/pullzone/${zone.Id}`, key)).status).toBe(401);
  });

  it('lets the journal see cached reads', async () => {
    const s = await start({ journalSize: 10 });
    const zone = await s.hears(() => createZone(t, 'observed'));
    expect((await s.get(`/pullzone/${zone.Id}`, t.key)).status).toBe(200);
    expect((await s.get(`/pullzone/${zone.Id}`, t.key)).status).toBe(200);
    expect(s.handled(), 'with the journal on, every read takes the slow path').toBe(2);
    const journal = await (await s.operator('GET', '/_edgeplane/journal')).json();
    expect(journal.entries.filter((e: { path: string }) => e.path === `/pullzone/${zone.Id}`)).toHaveLength(2);
  });

  it('lets fault rules apply to cached reads', async () => {
    const s = await start();
    const zone = await readTwice(s, 'faulted');
    const put = await s.operator('PUT', '/_edgeplane/faults', { rules: [{ method: 'GET', path: '/pullzone/:id', status: 503 }] });
    expect(put.status).toBe(200);
    expectErrorBody(asResponse(await s.get(`/pullzone/${zone.Id}`, t.key)), 503);
    expect((await s.operator('DELETE', '/_edgeplane/faults')).status).toBe(204);
    expect((await s.get(`/pullzone/${zone.Id}`, t.key)).status).toBe(200);
    expect(s.handled()).toBe(1);
  });

  it('takes one rate-limit token per read and lets the slow path refuse', async () => {
    const s = await start({ rateLimitPerSecond: 1 });
    // A burst of two: the miss takes one, the cached read the other, the third is refused.
    const zone = await readTwice(s, 'limited');
    const refused = await s.get(`/pullzone/${zone.Id}`, t.key);
    expectErrorBody(asResponse(refused), 429, `/pullzone/${zone.Id}`);
    expect(refused.headers.get('retry-after')).toBe('1');
    t.clock.advance(1_000);
    expect((await s.get(`/pullzone/${zone.Id}`, t.key)).status).toBe(200);
    expect((await s.get(`/pullzone/${zone.Id}`, t.key)).status).toBe(429);
  });

  it('refuses an address held back for failed credentials, valid cached key or not', async () => {
    const s = await start({ authFailureLimit: 2 });
    const zone = await readTwice(s, 'guarded');
    expect((await s.get(`/pullzone/${zone.Id}`, 'wrong-one')).status).toBe(401);
    expect((await s.get(`/pullzone/${zone.Id}`, 'wrong-two')).status).toBe(401);
    expect((await s.get(`/pullzone/${zone.Id}`, t.key)).status).toBe(429);
  });
});
