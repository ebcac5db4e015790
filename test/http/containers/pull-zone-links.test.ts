import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { anycastEndpoint, appBody, cdnEndpoint, createApp, createAppWithTemplate, fields400, minimalTemplate } from './fixtures.js';

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

let zoneCount = 0;
async function newZone(): Promise<number> {
  const res = await t.post('/pullzone', { Name: `front-${++zoneCount}-${Date.now()}`, OriginUrl: 'https://origin.example' });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.Id as number;
}

/** The link as the pull zone shows it. */
async function linkOf(zoneId: number): Promise<[string | null, string | null]> {
  const res = await t.get(`/pullzone/${zoneId}`);
  expect(res.status).toBe(200);
  return [res.body.ManagedContainersAppId, res.body.ManagedContainersEndpointId];
}

const endpointsOf = async (appId: string) =>
  (await t.get(`/mc/apps/${appId}/endpoints`)).body.items as { id: string; displayName: string; pullZoneId: string | null }[];

describe('linking a pull zone to an endpoint', () => {
  it('shows on the zone when an endpoint is created with it, added with it, or updated to it', async () => {
    const [a, b, c] = [await newZone(), await newZone(), await newZone()];
    const appId = await createApp(t, { containerTemplates: [{ ...minimalTemplate(), endpoints: [cdnEndpoint('first', { pullZoneId: a })] }] });
    const [first] = await endpointsOf(appId);
    expect(first!.pullZoneId).toBe(String(a));
    expect(await linkOf(a)).toEqual([appId, first!.id]);

    const containerId = (await t.get(`/mc/apps/${appId}`)).body.containerTemplates[0].id;
    const added = await t.post(`/mc/apps/${appId}/containers/${containerId}/endpoints`, cdnEndpoint('second', { pullZoneId: b }));
    expect(added.status).toBe(201);
    expect(await linkOf(b)).toEqual([appId, added.body.id]);

    // Moving the first endpoint to zone c releases zone a.
    expect((await t.put(`/mc/apps/${appId}/endpoints/first`, cdnEndpoint('first', { pullZoneId: c }))).status).toBe(200);
    expect(await linkOf(a)).toEqual([null, null]);
    expect(await linkOf(c)).toEqual([appId, first!.id]);
    // Sending the same zone again keeps it.
    expect((await t.put(`/mc/apps/${appId}/endpoints/first`, cdnEndpoint('renamed', { pullZoneId: c }))).status).toBe(200);
    expect(await linkOf(c)).toEqual([appId, first!.id]);
  });

  it('releases the zone when the endpoint turns anycast, is deleted, or its container or application goes', async () => {
    const zones = [await newZone(), await newZone(), await newZone(), await newZone(), await newZone()];
    const appId = await createApp(t, {
      containerTemplates: [
        { ...minimalTemplate(), name: 'one', endpoints: [cdnEndpoint('e0', { pullZoneId: zones[0] }), cdnEndpoint('e1', { pullZoneId: zones[1] })] },
        { ...minimalTemplate(), name: 'two', endpoints: [cdnEndpoint('e2', { pullZoneId: zones[2] })] },
        { ...minimalTemplate(), name: 'three', endpoints: [cdnEndpoint('e3', { pullZoneId: zones[3] }), cdnEndpoint('e4', { pullZoneId: zones[4] })] },
      ],
    });
    const [, two, three] = (await t.get(`/mc/apps/${appId}`)).body.containerTemplates;
    for (const z of zones) expect((await linkOf(z))[0]).toBe(appId);

    expect((await t.put(`/mc/apps/${appId}/endpoints/e0`, anycastEndpoint('e0'))).status).toBe(200);
    expect(await linkOf(zones[0]!)).toEqual([null, null]);
    expect((await t.del(`/mc/apps/${appId}/endpoints/e1`)).status).toBe(200);
    expect(await linkOf(zones[1]!)).toEqual([null, null]);
    expect((await t.del(`/mc/apps/${appId}/containers/${two.id}`)).status).toBe(200);
    expect(await linkOf(zones[2]!)).toEqual([null, null]);
    expect((await t.patch(`/mc/apps/${appId}/containers/${three.id}`, { endpoints: [cdnEndpoint('e4', { pullZoneId: zones[4] })] })).status).toBe(200);
    expect(await linkOf(zones[3]!)).toEqual([null, null]);
    expect((await linkOf(zones[4]!))[0]).toBe(appId);

    expect((await t.del(`/mc/apps/${appId}`)).status).toBe(200);
    expect(await linkOf(zones[4]!)).toEqual([null, null]);
  });

  it('lets a zone front one endpoint only, naming the field that sent it', async () => {
    const zone = await newZone();
    const { appId, template } = await createAppWithTemplate(t, { ...minimalTemplate(), endpoints: [cdnEndpoint('taken', { pullZoneId: zone })] });
    // Another endpoint of the same application.
    expect(fields400(await t.post(`/mc/apps/${appId}/containers/${template.id}/endpoints`, cdnEndpoint('x', { pullZoneId: zone })))).toEqual([
      'cdn.pullZoneId',
    ]);
    expect(
      fields400(await t.post(`/mc/apps/${appId}/containers`, { ...minimalTemplate(), name: 'b', endpoints: [cdnEndpoint('y', { pullZoneId: zone })] })),
    ).toEqual(['endpoints[0].cdn.pullZoneId']);
    const twice = appBody({
      containerTemplates: [{ ...minimalTemplate(), endpoints: [cdnEndpoint('p', { pullZoneId: zone }), cdnEndpoint('q', { pullZoneId: zone })] }],
    });
    expect(fields400(await t.put(`/mc/apps/${appId}`, twice))).toEqual(['containerTemplates[0].endpoints[1].cdn.pullZoneId']);
    // An endpoint of another application.
    expect(
      fields400(await t.post('/mc/apps', appBody({ containerTemplates: [{ ...minimalTemplate(), endpoints: [cdnEndpoint('z', { pullZoneId: zone })] }] }))),
    ).toEqual(['containerTemplates[0].endpoints[0].cdn.pullZoneId']);
    expect(await linkOf(zone)).toEqual([appId, template.endpoints[0].id]);

    // Once released, the zone is free for another application.
    expect((await t.del(`/mc/apps/${appId}`)).status).toBe(200);
    const next = await createApp(t, { containerTemplates: [{ ...minimalTemplate(), endpoints: [cdnEndpoint('z', { pullZoneId: zone })] }] });
    expect((await linkOf(zone))[0]).toBe(next);
  });

  it('moves a zone between endpoints of one application in a single replacement', async () => {
    const zone = await newZone();
    const { appId, template } = await createAppWithTemplate(t, { ...minimalTemplate(), endpoints: [cdnEndpoint('old', { pullZoneId: zone })] });
    const res = await t.put(
      `/mc/apps/${appId}`,
      appBody({ containerTemplates: [{ ...minimalTemplate(), id: template.id, endpoints: [cdnEndpoint('new', { pullZoneId: zone })] }] }),
    );
    expect(res.status).toBe(200);
    const [endpoint] = await endpointsOf(appId);
    expect(endpoint!.displayName).toBe('new');
    expect(await linkOf(zone)).toEqual([appId, endpoint!.id]);
  });
});

describe('deleting a linked pull zone', () => {
  it('unlinks the endpoints behind it, which keep working without it', async () => {
    const [gone, kept] = [await newZone(), await newZone()];
    const appId = await createApp(t, {
      containerTemplates: [{ ...minimalTemplate(), endpoints: [cdnEndpoint('a', { pullZoneId: gone }), cdnEndpoint('b', { pullZoneId: kept })] }],
    });
    const deleted = await t.del(`/pullzone/${gone}`);
    expect(deleted.status).toBeLessThan(300);
    expect((await t.get(`/pullzone/${gone}`)).status).toBe(404);

    const [a, b] = await endpointsOf(appId);
    expect(a!.pullZoneId).toBeNull();
    expect(b!.pullZoneId).toBe(String(kept));
    expect(await linkOf(kept)).toEqual([appId, b!.id]);
    // The application is still fully usable, and its other link still syncs.
    expect((await t.del(`/mc/apps/${appId}/endpoints/b`)).status).toBe(200);
    expect(await linkOf(kept)).toEqual([null, null]);
  });

  it('unlinks inside the deleting transaction: a failed delete leaves the link in place', async () => {
    const zone = await newZone();
    const appId = await createApp(t, { containerTemplates: [{ ...minimalTemplate(), endpoints: [cdnEndpoint('a', { pullZoneId: zone })] }] });
    await expect(
      t.store.transaction(async (tx) => {
        await t.app.services.pullZones.deleteIn(tx, t.accountId, zone);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect((await endpointsOf(appId))[0]!.pullZoneId).toBe(String(zone));

    await t.store.transaction((tx) => t.app.services.pullZones.deleteIn(tx, t.accountId, zone));
    expect((await endpointsOf(appId))[0]!.pullZoneId).toBeNull();
  });
});
