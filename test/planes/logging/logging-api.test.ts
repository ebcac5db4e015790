/**
 * The logging plane: a zone's owner reads the lines of the requests the edge served, by day, with
 * an account API key (`GET /{MM}-{DD}-{YY}/{pullZoneId}.log`, and the JSON version); nobody else
 * does. Logs kept in storage (`LoggingSaveToStorage`): the day's file in the storage zone, read
 * back through the file API. On PostgreSQL, a second instance's edge writes into the same log.
 */
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayName } from '../../../src/domain/edge/logs/log-files.js';
import { listenLogging } from '../../../src/planes/logging/listen.js';
import type { RunningPlane } from '../../../src/planes/plane.js';
import { buildApiOver, createTestApp, type TestContext } from '../../helpers/app.js';
import { testStoreKind } from '../../helpers/store.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../../helpers/edge-plane.js';
import { createStorageZone, files, startStoragePlane, type StoragePlane } from '../../helpers/storage-plane.js';
import { within } from '../../helpers/within.js';

let t: TestContext;
let origin: TestOrigin;
let edge: EdgePlane;
let logging: RunningPlane;
let storage: StoragePlane;
const loggingErrors: unknown[] = [];

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin();
  edge = await startEdgePlane(t);
  logging = await listenLogging(t.app.services, '127.0.0.1', 0, (error) => loggingErrors.push(error));
  storage = await startStoragePlane(t);
});
afterAll(async () => {
  await logging.close();
  await storage.close();
  await edge.close();
  await origin.close();
  await t.close();
  expect(loggingErrors).toEqual([]);
});

async function logs(path: string, key: string | null = t.key, headers: Record<string, string> = {}) {
  const res = await request(`${logging.url}${path}`, { headers: { ...(key === null ? {} : { accesskey: key }), ...headers } });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body, text: body.toString() };
}

const today = () => dayName(new Date());
/** The served requests' ids, in the order made. */
async function serve(host: string, paths: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const path of paths) ids.push((await edge.get(host, path, { 'user-agent': 'logs-test' })).headers['cdn-requestid']!);
  return ids;
}

describe('the logging API', () => {
  it('gives a zone’s owner exactly the requests of the day, newest first, paged, gzipped when asked', async () => {
    const zone = await createPullZone(t, 'logged', origin.url);
    const other = await createPullZone(t, 'neighbour', origin.url);
    const ids = await serve(zone.host, ['/a.txt', '/b.txt', '/a.txt']);
    await serve(other.host, ['/n.txt']);
    const path = `/${today()}/${zone.Id}.log`;
    await within(2000, async () => (await logs(path)).text.split('\n').length === 4);
    const res = await logs(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.text.trimEnd().split('\n');
    expect(lines.map((line) => line.split('|')[10])).toEqual([...ids].reverse());
    const [newest, , oldest] = lines.map((line) => line.split('|'));
    expect([newest![0], newest![1], newest![4], newest![5], newest![7], newest![9]]).toEqual([
      'HIT',
      '200',
      String(zone.Id),
      '127.0.0.0',
      `http://${zone.host}/a.txt`,
      'logs-test',
    ]);
    expect(oldest![0]).toBe('MISS');
    expect(Number(oldest![2])).toBeLessThanOrEqual(Number(newest![2]));

    expect((await logs(`${path}?order=asc&start=1&end=2`)).text).toBe(`${lines[1]}\n`);
    expect((await logs(`${path}?start=2`)).text).toBe(`${lines[2]}\n`);
    const gzipped = await logs(path, t.key, { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(res.text);
    const yesterday = dayName(new Date(Date.now() - 86_400_000));
    expect(await logs(`/${yesterday}/${zone.Id}.log`)).toMatchObject({ status: 200, text: '' });

    const v2 = await logs(`/v2/pullzones/${zone.Id}/logs?limit=2&order=asc`);
    expect(v2.status).toBe(200);
    const page = JSON.parse(v2.text) as { Items: Record<string, unknown>[]; HasMoreItems: boolean };
    expect(page.HasMoreItems).toBe(true);
    expect(page.Items.map((item) => item['RequestId'])).toEqual(ids.slice(0, 2));
    expect(page.Items[0]).toMatchObject({ CacheStatus: 'MISS', Status: 200, PullZoneId: zone.Id, Url: `http://${zone.host}/a.txt`, UserAgent: 'logs-test' });
  });

  it('answers nobody but the zone’s account, and says so plainly', async () => {
    const zone = await createPullZone(t, 'private-logs', origin.url);
    const quiet = await createPullZone(t, 'quiet-logs', origin.url, { EnableLogging: false });
    await serve(zone.host, ['/secret.txt']);
    const stranger = await t.newAccount();
    const path = `/${today()}/${zone.Id}.log`;
    expect((await logs(path, null)).status).toBe(401);
    expect((await logs(path, 'not-a-key')).status).toBe(401);
    const foreign = await logs(path, stranger.key);
    expect(foreign.status).toBe(403);
    expect(foreign.text).not.toContain('secret');
    expect((await logs(`/${today()}/999999.log`)).status).toBe(403);
    expect(JSON.parse((await logs(`/v2/pullzones/${zone.Id}/logs`, stranger.key)).text)).toEqual({ error: 'forbidden', message: expect.any(String) });
    expect(JSON.parse((await logs(`/v2/pullzones/${quiet.Id}/logs`)).text)).toMatchObject({ error: 'logging_disabled' });
    expect((await logs(`/13-40-26/${zone.Id}.log`)).status).toBe(400);
    expect((await logs(`${path}?order=sideways`)).status).toBe(400);
    expect((await logs('/elsewhere')).status).toBe(404);

    // A deleted zone's log goes with it.
    expect((await t.del(`/pullzone/${zone.Id}`)).status).toBe(204);
    expect(await t.store.accessLog.newest(zone.Id, { limit: 1 })).toEqual([]);
    expect((await logs(path)).status).toBe(403);
  });

  it('keeps a day’s lines as a file in the storage zone, in the zone’s format', async () => {
    const kept = await createStorageZone(t, 'kept-logs');
    const zone = await createPullZone(t, 'stored-logs', origin.url, { LoggingSaveToStorage: true, LoggingStorageZoneId: kept.Id, LogFormat: 1 });
    const ids = await serve(zone.host, ['/x.txt', '/y.txt']);
    await within(2000, async () => {
      await t.app.services.logFiles.flush();
      return (await files(storage, kept).list(`${zone.Id}/`)).body.length > 0;
    });
    const listed = (await files(storage, kept).list(`${zone.Id}/`)).body;
    expect(listed).toHaveLength(1);
    const name = String(listed[0]!['ObjectName']);
    expect(name).toMatch(new RegExp(`^${today()}-\\d{9}-[0-9a-f]{6}\\.log$`));
    const text = await (await files(storage, kept).get(`${zone.Id}/${name}`)).text();
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line['RequestId'])).toEqual(ids);
    expect(lines[0]).toMatchObject({ CacheStatus: 'MISS', Status: 200, PullZoneId: zone.Id, RemoteIp: '127.0.0.0', Url: `http://${zone.host}/x.txt` });

    // Deleting the pull zone takes its log files, and only them: the owner's files beside them
    // (one named like a log file) and elsewhere stay, and so does the folder holding them.
    const store = files(storage, kept);
    const lookalike = `${zone.Id}/${today()}-000000000-abcdef.log`;
    for (const path of [lookalike, `${zone.Id}/notes.txt`, 'elsewhere.log']) expect((await store.put(path, 'mine')).status).toBe(201);
    expect((await t.del(`/pullzone/${zone.Id}`)).status).toBe(204);
    expect((await store.get(`${zone.Id}/${name}`)).status).toBe(404);
    expect((await store.list(`${zone.Id}/`)).body.map((f) => f['ObjectName']).sort()).toEqual([lookalike.split('/')[1], 'notes.txt']);
    expect(await (await store.get('elsewhere.log')).text()).toBe('mine');
    // A folder left empty goes too.
    const second = await createPullZone(t, 'stored-logs-2', origin.url, { LoggingSaveToStorage: true, LoggingStorageZoneId: kept.Id });
    await serve(second.host, ['/z.txt']);
    await within(2000, async () => {
      await t.app.services.logFiles.flush();
      return (await store.list(`${second.Id}/`)).body.length > 0;
    });
    expect((await t.del(`/pullzone/${second.Id}`)).status).toBe(204);
    expect((await store.list('')).body.map((f) => f['ObjectName']).sort()).toEqual([String(zone.Id), 'elsewhere.log'].sort());
  });

  // Here rather than in test/postgres/: the setup above is most of its time.
  it.runIf(testStoreKind() === 'postgres')('reads the lines every instance wrote, through either instance', async () => {
    const storeB = await t.openStore();
    const b = await buildApiOver({ config: t.config, store: storeB, masterKey: t.masterKey, clock: t.clock.read });
    const edgeB = await startEdgePlane(t, { services: b.services });
    try {
      const zone = await createPullZone(t, 'two-instances', origin.url);
      const ids = [...(await serve(zone.host, ['/1'])), (await edgeB.get(zone.host, '/2')).headers['cdn-requestid']!, ...(await serve(zone.host, ['/3']))];
      // Instance B writes its lines within a second (its access log's flush); this one's are flushed when read.
      await b.services.edgeAccessLog.flush();
      const lines = (await logs(`/${today()}/${zone.Id}.log?order=asc`)).text.trimEnd().split('\n');
      expect(lines.map((line) => line.split('|')[10]).sort()).toEqual([...ids].sort());
    } finally {
      await edgeB.close();
      await b.close();
      await storeB.close();
    }
  });
});
