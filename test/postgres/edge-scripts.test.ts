/**
 * Publishing a script on one instance switches the other instance's edge to the new code within a
 * second (PostgreSQL's change feed) plus the new process's start, and a rollback switches it back; a request in flight when the
 * switch comes finishes on the code it started on.
 */
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdgeCore } from '../../src/planes/edge/core.js';
import { listenEdge } from '../../src/planes/edge/listen.js';
import type { RunningPlane } from '../../src/planes/plane.js';
import type { Store } from '../../src/store/types.js';
import { buildApiOver, createTestApp, type TestContext } from '../helpers/app.js';
import { within } from '../helpers/within.js';

let a: TestContext;
let storeB: Store;
let b: FastifyInstance;
let edgeB: RunningPlane;

beforeAll(async () => {
  a = await createTestApp({ edgeScriptStartupMs: 10_000 }, { storeKind: 'postgres' });
  storeB = await a.openStore();
  b = await buildApiOver({ config: a.config, store: storeB, masterKey: a.masterKey, clock: a.clock.read });
  edgeB = await listenEdge(createEdgeCore(b.services, { cdnDomain: a.config.cdnDomain, cacheBytes: 1 << 20, logError: () => undefined }), '127.0.0.1', 0);
});
afterAll(async () => {
  await edgeB?.close();
  await b?.close();
  await storeB?.close();
  await a?.close();
});

const onB = async (host: string, path: string) => (await request(`${edgeB.url}${path}`, { headers: { host }, headersTimeout: 15_000 })).body.text();

const startOnB = (id: number) => b.services.edgeScripts.runtime.startMsOf(id) ?? 0;

const version = (v: string) => `import * as SDK from "@bunny.net/edgescript-sdk";
SDK.net.http.serve(async (req) => {
  if (new URL(req.url).pathname === "/slow") await new Promise((r) => setTimeout(r, 400));
  return new Response("${v}", { headers: { "cache-control": "no-store" } });
});`;

describe('publishing across instances on PostgreSQL', () => {
  it('a publish reaches the other edge within a second, in-flight requests finish on the old code, and a rollback switches back', async () => {
    const script = (await a.post('/compute/script', { Name: 'pg-script', Code: version('v1'), ScriptType: 1, CreateLinkedPullZone: true })).body;
    const host = `pg-script.${a.config.cdnDomain}`;
    expect((await a.post(`/compute/script/${script.Id}/publish`, {})).status).toBe(204);
    expect(await onB(host, '/')).toBe('v1');
    const first = (await a.get(`/compute/script/${script.Id}/releases/active`)).body;

    const inFlight = onB(host, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await a.post(`/compute/script/${script.Id}/code`, { Code: version('v2') });
    expect((await a.post(`/compute/script/${script.Id}/publish`, {})).status).toBe(204);
    // Within a second of the publish, plus the new process's start (tens of ms on a quiet machine; more under load).
    const switched = await within(10_000, async () => (await onB(host, '/')) === 'v2');
    expect(switched).toBeLessThan(1000 + startOnB(script.Id));
    expect(await inFlight).toBe('v1');

    expect((await a.post(`/compute/script/${script.Id}/publish/${first.Uuid}`, {})).status).toBe(204);
    const rolledBack = await within(10_000, async () => (await onB(host, '/')) === 'v1');
    expect(rolledBack).toBeLessThan(1000 + startOnB(script.Id));
  });
});
