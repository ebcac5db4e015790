/**
 * The edge serves pull zones by Host: from the origin, then from its cache, with the diagnostic
 * headers; unknown hosts, disabled zones and failing origins get the edge's pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, updatePullZone } from '../../helpers/edge-plane.js';

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;

beforeAll(async () => {
  t = await createTestApp();
  origin = await startOrigin();
  edge = await startEdgePlane(t);
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

describe('routing by Host', () => {
  it('serves a zone by its system hostname: MISS from the origin, then HIT from the cache', async () => {
    const zone = await createPullZone(t, 'serve-basic', origin.url);
    const first = await edge.get(zone.host, '/hello.txt');
    expect(first.status).toBe(200);
    expect(first.text).toBe('origin /hello.txt');
    expect(first.headers['cdn-cache']).toBe('MISS');
    expect(first.headers['cdn-pullzone']).toBe(String(zone.Id));
    expect(first.headers['cdn-requestid']).toMatch(/^[0-9a-f]{32}$/);
    expect(first.headers['server']).toBe('edgeplane');
    const before = origin.requests.length;
    const second = await edge.get(zone.host, '/hello.txt');
    expect(second.status).toBe(200);
    expect(second.text).toBe('origin /hello.txt');
    expect(second.headers['cdn-cache']).toBe('HIT');
    expect(second.headers['cdn-cachedat']).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d$/);
    expect(second.headers['cdn-requestid']).not.toBe(first.headers['cdn-requestid']);
    expect(origin.requests.length).toBe(before);
  });

  it('answers an unknown host with a 404 page', async () => {
    const res = await edge.get('nobody.example', '/');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('nobody.example');
  });

  it('answers a disabled or suspended zone with a 403 page, its own page when it has one', async () => {
    const zone = await createPullZone(t, 'serve-disabled', origin.url);
    expect((await edge.get(zone.host, '/x')).status).toBe(200);
    await t.app.services.store.transaction(async (tx) => {
      const found = await t.app.services.pullZones.zones.get(tx, t.accountId, zone.Id);
      await t.app.services.pullZones.zones.update(tx, t.accountId, found, { ...found.doc, Enabled: false });
    });
    const refused = await edge.get(zone.host, '/x');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('disabled');
    await t.app.services.operator.setSuspended(zone.Id, true);
    const suspended = await edge.get(zone.host, '/x');
    expect(suspended.status).toBe(403);
    expect(suspended.text).toContain('suspended');
    await updatePullZone(t, zone.Id, { ErrorPageEnableCustomCode: true, ErrorPageCustomCode: '<p>our own page</p>' });
    const custom = await edge.get(zone.host, '/x');
    expect(custom.status).toBe(403);
    expect(custom.text).toBe('<p>our own page</p>');
  });
});
