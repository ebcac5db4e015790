/**
 * The edge serves pull zones by Host: from the origin, then from its cache, with the diagnostic
 * headers; unknown hosts, disabled zones and failing origins get the edge's pages.
 */
import { describe, expect, it } from 'vitest';
import { updatePullZone } from '../../helpers/edge-plane.js';
import { useEdgeWorld } from '../../helpers/edge-world.js';

const world = useEdgeWorld();

describe('routing by Host', () => {
  it('serves a zone by its system hostname: MISS from the origin, then HIT from the cache', async () => {
    const zone = await world.zone('serve-basic');
    const first = await world.edge.get(zone.host, '/hello.txt');
    expect(first.status).toBe(200);
    expect(first.text).toBe('origin /hello.txt');
    expect(first.headers['cdn-cache']).toBe('MISS');
    expect(first.headers['cdn-pullzone']).toBe(String(zone.Id));
    expect(first.headers['cdn-requestid']).toMatch(/^[0-9a-f]{32}$/);
    expect(first.headers['server']).toBe('edgeplane');
    const before = world.origin.requests.length;
    const second = await world.edge.get(zone.host, '/hello.txt');
    expect(second.status).toBe(200);
    expect(second.text).toBe('origin /hello.txt');
    expect(second.headers['cdn-cache']).toBe('HIT');
    expect(second.headers['cdn-cachedat']).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d$/);
    expect(second.headers['cdn-requestid']).not.toBe(first.headers['cdn-requestid']);
    expect(world.origin.requests.length).toBe(before);
  });

  it('answers an unknown host with a 404 page', async () => {
    const res = await world.edge.get('nobody.example', '/');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('nobody.example');
  });

  it('answers a disabled or suspended zone with a 403 page, its own page when it has one', async () => {
    const zone = await world.zone('serve-disabled');
    expect((await world.edge.get(zone.host, '/x')).status).toBe(200);
    await world.t.app.services.store.transaction(async (tx) => {
      const found = await world.t.app.services.pullZones.zones.get(tx, world.t.accountId, zone.Id);
      await world.t.app.services.pullZones.zones.update(tx, world.t.accountId, found, { ...found.doc, Enabled: false });
    });
    const refused = await world.edge.get(zone.host, '/x');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('disabled');
    await world.t.app.services.operator.setSuspended(zone.Id, true);
    const suspended = await world.edge.get(zone.host, '/x');
    expect(suspended.status).toBe(403);
    expect(suspended.text).toContain('suspended');
    await updatePullZone(world.t, zone.Id, { ErrorPageEnableCustomCode: true, ErrorPageCustomCode: '<p>our own page</p>' });
    const custom = await world.edge.get(zone.host, '/x');
    expect(custom.status).toBe(403);
    expect(custom.text).toBe('<p>our own page</p>');
  });
});
