/**
 * The origin errors API on the logging plane (`GET /{pullZoneId}/{MM-dd-yyyy}`): requests the edge
 * could not get from a zone's origin — a name that does not resolve, an address the origin policy
 * refuses, a connection reset, an origin that never answers — are recorded with the platform's
 * codes and served to the zone's owner only; a deleted zone's errors go with it.
 */
import { type LookupFunction, type Server, createServer, type Socket } from 'node:net';
import { lookup as systemLookup } from 'node:dns';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OriginErrorLog } from '../../../src/domain/edge/origin/origin-errors.js';
import { listenLogging } from '../../../src/planes/logging/listen.js';
import type { RunningPlane } from '../../../src/planes/plane.js';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane } from '../../helpers/edge-plane.js';

/** Names the edge resolves: one that does not exist, one at a metadata address the origin policy always refuses. */
const originLookup: LookupFunction = (hostname, options, callback) => {
  if (hostname === 'missing.origin.test') {
    const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    return callback(error, '', 4);
  }
  if (hostname === 'metadata.origin.test')
    return options.all ? callback(null, [{ address: '169.254.169.254', family: 4 }]) : callback(null, '169.254.169.254', 4);
  return systemLookup(hostname, options, callback);
};

let t: TestContext;
let edge: EdgePlane;
let logging: RunningPlane;
/** Accepts connections and never answers (held open until the end). */
let silent: Server;
/** Accepts connections and resets them at once. */
let resetting: Server;
const held: Socket[] = [];
const loggingErrors: unknown[] = [];
/** The test clock's day (the errors are timed by the services' clock). */
let day: string;

const listening = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};

beforeAll(async () => {
  t = await createTestApp({}, { originLookup });
  edge = await startEdgePlane(t);
  logging = await listenLogging(t.app.services, '127.0.0.1', 0, (error) => loggingErrors.push(error));
  silent = createServer((socket) => held.push(socket));
  resetting = createServer((socket) => socket.resetAndDestroy());
  const now = t.clock.read();
  day = `${String(now.getUTCMonth() + 1).padStart(2, '0')}-${String(now.getUTCDate()).padStart(2, '0')}-${now.getUTCFullYear()}`;
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  silent.close();
  resetting.close();
  await logging.close();
  await edge.close();
  await t.close();
  expect(loggingErrors).toEqual([]);
});

async function originErrors(path: string, key: string | null = t.key) {
  const res = await request(`${logging.url}${path}`, { headers: key === null ? {} : { accesskey: key } });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, unknown> };
}

interface Entry {
  logId: string;
  timestamp: number;
  log: string;
  labels: Record<string, string>;
}

describe('the origin errors API', () => {
  it('records each failed origin request with its code, and serves the day’s to the zone’s owner', async () => {
    // The origin that never answers takes its second: asked first, looked at last.
    const slow = await createPullZone(t, 'slow-origin', await listening(silent), { OriginResponseTimeout: 1, OriginRetries: 0 });
    const timedOut = edge.get(slow.host, '/d.txt');
    const zone = await createPullZone(t, 'failing', 'http://missing.origin.test', { OriginRetries: 0 });
    expect((await edge.get(zone.host, '/a.txt?v=1')).status).toBe(502);
    await createPullZone(t, 'refused-origin', 'http://metadata.origin.test').then(async (other) => {
      expect((await edge.get(other.host, '/b.txt')).status).toBe(502);
      const res = await originErrors(`/${other.Id}/${day}`);
      expect((res.body['logs'] as Entry[]).map((e) => e.labels['ErrorCode'])).toEqual(['http_request_failure']);
    });
    await t.post(`/pullzone/${zone.Id}`, { OriginUrl: await listening(resetting) });
    expect((await edge.get(zone.host, '/c.txt')).status).toBe(502);

    const res = await originErrors(`/${zone.Id}/${day}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const logs = res.body['logs'] as Entry[];
    expect(logs.map((e) => [e.labels['ErrorCode'], e.labels['StatusCode']])).toEqual([
      ['dns_lookup', '502'],
      ['network_socket_exception', '502'],
    ]);
    const [first] = logs;
    expect(first!.logId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first!.timestamp).toBe(t.clock.read().getTime());
    expect(first!.labels).toEqual({ ErrorCode: 'dns_lookup', StatusCode: '502', ServerZone: 'LOCAL', OriginHost: 'missing.origin.test' });
    expect(JSON.parse(first!.log)).toEqual({
      RequestUrl: '/a.txt?v=1',
      PullZoneId: zone.Id,
      Message: expect.stringContaining('ENOTFOUND'),
      ErrorCode: 'dns_lookup',
      StatusCode: 502,
    });
    expect((await timedOut).status).toBe(504);
    const slowLogs = (await originErrors(`/${slow.Id}/${day}`)).body['logs'] as Entry[];
    expect(slowLogs.map((e) => [e.labels['ErrorCode'], e.labels['StatusCode'], JSON.parse(e.log).Message])).toEqual([
      ['http_timeout', '504', 'the origin did not answer within 1 s'],
    ]);
    // Another day has none.
    expect((await originErrors(`/${zone.Id}/12-31-2025`)).body).toEqual({ logs: [] });
  });

  it('answers nobody but the zone’s account, refuses bad dates, and forgets a deleted zone', async () => {
    const zone = await createPullZone(t, 'private-errors', 'http://missing.origin.test', { OriginRetries: 0 });
    expect((await edge.get(zone.host, '/secret.txt')).status).toBe(502);
    const path = `/${zone.Id}/${day}`;
    expect((await originErrors(path)).body['logs']).toHaveLength(1);

    const stranger = await t.newAccount();
    const foreign = await originErrors(path, stranger.key);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ title: 'Forbidden', status: 403, detail: expect.any(String), instance: path, errors: [], id: expect.any(String) });
    expect(JSON.stringify(foreign.body)).not.toContain('secret');
    expect((await originErrors(`/999999/${day}`)).status).toBe(403);
    expect((await originErrors(path, null)).status).toBe(401);
    expect((await originErrors(path, 'not-a-key')).body).toMatchObject({ title: 'Unauthorized', status: 401 });
    for (const bad of ['13-01-2026', '02-30-2026', '2026-01-01', '01-01-26']) {
      expect((await originErrors(`/${zone.Id}/${bad}`)).body).toMatchObject({ status: 400, title: 'Bad Request', instance: `/${zone.Id}/${bad}` });
    }

    // A deleted zone's errors go with it: those in the store, and those this instance still holds.
    expect((await edge.get(zone.host, '/queued.txt')).status).toBe(502);
    expect((await t.del(`/pullzone/${zone.Id}`)).status).toBe(204);
    await t.app.services.originErrors.flush();
    const from = Date.UTC(t.clock.read().getUTCFullYear(), t.clock.read().getUTCMonth(), t.clock.read().getUTCDate());
    expect(await t.store.originErrors.between(zone.Id, from, from + 86_400_000, 10)).toEqual([]);
    expect((await originErrors(path)).status).toBe(403);
  });

  it('keeps a zone’s newest entries of a day, and no day past the access log’s retention', async () => {
    const store = t.store.originErrors;
    const account = (await t.newAccount()).accountId;
    const at = Date.UTC(2026, 0, 1, 12);
    const entry = (n: number, when = at) => ({
      accountId: account,
      pullZoneId: 777,
      at: when + n,
      logId: `id-${n}`,
      code: 'http_timeout',
      status: 504,
      message: 'm',
      url: '/',
      labels: '{}',
    });
    await store.append([1, 2, 3, 4, 5].map((n) => entry(n)));
    const yearBefore = Date.UTC(2025, 0, 1);
    await store.append([entry(0, yearBefore)]);
    expect(await store.trimDay(777, Math.floor(at / 86_400_000), 3)).toBe(2);
    expect((await store.between(777, yearBefore, at + 86_400_000, 100)).map((e) => e.logId)).toEqual(['id-0', 'id-3', 'id-4', 'id-5']);
    expect(await store.expire(yearBefore + 86_400_000)).toBe(1);
    expect((await store.between(777, 0, at + 86_400_000, 2)).map((e) => e.logId)).toEqual(['id-3', 'id-4']);
  });

  it('drops an entry the store refuses for good after three flushes, and writes the others', async () => {
    const log = new OriginErrorLog(t.store, t.clock.read);
    const failure = (accountId: number, requestUrl: string) => ({
      accountId,
      pullZoneId: 778,
      origin: new URL('http://origin.test'),
      requestUrl,
      status: 502,
      message: 'refused',
      cause: { failure: 'unreachable' as const, errno: 'ECONNREFUSED' },
    });
    // An account that is not there (gone in an operator's reset while its errors waited).
    log.record(failure(999_999, '/orphan'));
    for (let i = 0; i < 3; i++) await expect(log.flush()).rejects.toThrow();
    expect(log.dropped).toBe(1);
    log.record(failure(t.accountId, '/kept'));
    await log.flush();
    const from = Math.floor(t.clock.read().getTime() / 86_400_000) * 86_400_000;
    expect((await t.store.originErrors.between(778, from, from + 86_400_000, 10)).map((e) => e.url)).toEqual(['/kept']);
    await log.close();
  });
});
