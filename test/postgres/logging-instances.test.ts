/**
 * Two instances on one PostgreSQL: the requests each edge served are all in the zone's log, read
 * through either instance's logging plane.
 */
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dayName } from '../../src/domain/edge/logs/log-files.js';
import { listenLogging } from '../../src/planes/logging/listen.js';
import type { RunningPlane } from '../../src/planes/plane.js';
import type { Store } from '../../src/store/types.js';
import { buildApiOver, createTestApp, type TestContext } from '../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../helpers/edge-plane.js';

let a: TestContext;
let storeB: Store;
let b: FastifyInstance;
let edgeA: EdgePlane;
let edgeB: EdgePlane;
let loggingB: RunningPlane;
let origin: TestOrigin;

beforeAll(async () => {
  a = await createTestApp({}, { storeKind: 'postgres' });
  storeB = await a.openStore();
  b = await buildApiOver({ config: a.config, store: storeB, masterKey: a.masterKey, clock: a.clock.read });
  origin = await startOrigin();
  edgeA = await startEdgePlane(a);
  edgeB = await startEdgePlane(a, { services: b.services });
  loggingB = await listenLogging(b.services, '127.0.0.1', 0, () => undefined);
});
afterAll(async () => {
  await loggingB.close();
  await edgeB.close();
  await edgeA.close();
  await origin.close();
  await b.close();
  await storeB.close();
  await a.close();
});

it('reads the lines every instance wrote, through either instance', async () => {
  const zone = await createPullZone(a, 'two-instances', origin.url);
  const ids: string[] = [];
  for (const [edge, path] of [
    [edgeA, '/1'],
    [edgeB, '/2'],
    [edgeA, '/3'],
  ] as const)
    ids.push((await edge.get(zone.host, path)).headers['cdn-requestid']!);
  // Instance A writes its lines within a second (its access log's flush); B's are flushed when read.
  await a.app.services.edgeAccessLog.flush();
  const res = await request(`${loggingB.url}/${dayName(new Date())}/${zone.Id}.log?order=asc`, { headers: { accesskey: a.key } });
  expect(res.statusCode).toBe(200);
  const lines = (await res.body.text()).trimEnd().split('\n');
  expect(lines.map((line) => line.split('|')[10]).sort()).toEqual([...ids].sort());
  expect(lines.map((line) => line.split('|')[7])).toEqual(expect.arrayContaining([`http://${zone.host}/2`]));
});
