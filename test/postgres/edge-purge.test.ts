/**
 * Purges on one instance reach the edge of another on the same PostgreSQL: each instance caches on
 * its own, and the change feed tells the other one what the purge removed.
 */
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEdgeCore } from '../../src/planes/edge/core.js';
import { listenEdge } from '../../src/planes/edge/listen.js';
import type { RunningPlane } from '../../src/planes/plane.js';
import type { Store } from '../../src/store/types.js';
import { buildApiOver, createTestApp, type TestContext } from '../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../helpers/edge-plane.js';
import { within } from '../helpers/within.js';

let a: TestContext;
let storeB: Store;
let b: FastifyInstance;
let edgeA: EdgePlane;
let edgeB: RunningPlane;
let origin: TestOrigin;
let version = 1;

beforeEach(async () => {
  a = await createTestApp({}, { storeKind: 'postgres' });
  storeB = await a.openStore();
  b = await buildApiOver({ config: a.config, store: storeB, masterKey: a.masterKey, clock: a.clock.read });
  origin = await startOrigin((req, res) => {
    res.writeHead(200, { 'cache-control': 'max-age=600' });
    res.end(`v${version} ${req.url}`);
  });
  edgeA = await startEdgePlane(a);
  edgeB = await listenEdge(createEdgeCore(b.services, { cdnDomain: a.config.cdnDomain, cacheBytes: 1 << 20, logError: () => undefined }), '127.0.0.1', 0);
});
afterEach(async () => {
  await edgeB.close();
  await edgeA.close();
  await origin.close();
  await b.close();
  await storeB.close();
  await a.close();
});

const onB = async (host: string, path: string) => {
  const res = await request(`${edgeB.url}${path}`, { headers: { host } });
  return { cache: res.headers['cdn-cache'], text: await res.body.text() };
};

describe('purges across instances on PostgreSQL', () => {
  it('POST /purge on one instance removes the URL from the other edge within a second', async () => {
    const zone = await createPullZone(a, 'pg-purge-url', origin.url);
    await onB(zone.host, '/a.txt');
    await onB(zone.host, '/b.txt');
    expect((await onB(zone.host, '/a.txt')).cache).toBe('HIT');
    version = 2;
    expect((await a.post(`/purge?url=${encodeURIComponent(`https://${zone.host}/a.txt`)}`)).status).toBe(200);
    await within(1000, async () => (await onB(zone.host, '/a.txt')).text === 'v2 /a.txt');
    expect(await onB(zone.host, '/b.txt')).toEqual({ cache: 'HIT', text: 'v1 /b.txt' });
    // The instance that purged saw it too.
    expect((await edgeA.get(zone.host, '/a.txt')).text).toBe('v2 /a.txt');
  });

  it('purgeCache on one instance empties the zone on the other within a second', async () => {
    version = 1;
    const zone = await createPullZone(a, 'pg-purge-all', origin.url);
    await onB(zone.host, '/c.txt');
    expect((await onB(zone.host, '/c.txt')).cache).toBe('HIT');
    version = 3;
    expect((await a.post(`/pullzone/${zone.Id}/purgeCache`, {})).status).toBe(204);
    await within(1000, async () => (await onB(zone.host, '/c.txt')).text === 'v3 /c.txt');
  });
});
