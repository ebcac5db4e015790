import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutoScaling, ListVolumesResponse, RegionSettings } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { anycastEndpoint, cdnEndpoint, createApp, expectSchema, fields400, minimalTemplate } from './fixtures.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp({ jobDelayMs: 0 });
});
afterAll(async () => {
  await t.close();
});

describe('GET/PUT /mc/apps/{appId}/region-settings', () => {
  it('reads the settings, replaces them, and gives endpoints addresses in exactly the new regions', async () => {
    const appId = await createApp(t, {
      regionSettings: { allowedRegionIds: ['DE', 'NY'], requiredRegionIds: ['DE'], maxAllowedRegions: 2 },
      containerTemplates: [{ ...minimalTemplate(), endpoints: [cdnEndpoint('public'), anycastEndpoint('dns')] }],
    });
    const got = await t.get(`/mc/apps/${appId}/region-settings`);
    expect(got.status).toBe(200);
    expectSchema(RegionSettings, got.body);
    expect(got.body).toEqual({
      allowedRegionIds: ['DE', 'NY'],
      requiredRegionIds: ['DE'],
      maxAllowedRegions: 2,
      provisioningType: 'dynamic',
      nodeSelectors: null,
    });
    const [cdn, anycast] = (await t.get(`/mc/apps/${appId}`)).body.containerTemplates[0].endpoints;

    const res = await t.put(`/mc/apps/${appId}/region-settings`, { allowedRegionIds: ['SG', 'DE'], nodeSelectors: { gpu: 'yes' } });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    expect((await t.get(`/mc/apps/${appId}/region-settings`)).body).toEqual({
      allowedRegionIds: ['SG', 'DE'],
      requiredRegionIds: [],
      maxAllowedRegions: null,
      provisioningType: 'static',
      nodeSelectors: { gpu: 'yes' },
    });
    const [cdnAfter, anycastAfter] = (await t.get(`/mc/apps/${appId}`)).body.containerTemplates[0].endpoints;
    expect(cdnAfter.publicIpAddresses.map((a: { region: string }) => a.region)).toEqual(['SG', 'DE']);
    expect(cdnAfter.publicIpAddresses[1]).toEqual(cdn.publicIpAddresses.find((a: { region: string }) => a.region === 'DE'));
    expect(cdnAfter.internalIpAddresses).toHaveLength(2);
    // An anycast endpoint keeps its one address, now announced from the new regions.
    expect(new Set(anycastAfter.publicIpAddresses.map((a: { address: string }) => a.address))).toEqual(new Set([anycast.publicIpAddresses[0].address]));
  });

  it('validates the body, naming the field', async () => {
    const appId = await createApp(t);
    expect(fields400(await t.put(`/mc/apps/${appId}/region-settings`, { allowedRegionIds: 'DE' }))).toEqual(['allowedRegionIds']);
    expect(fields400(await t.put(`/mc/apps/${appId}/region-settings`, { nodeSelectors: { a: 1 } }))).toEqual(['nodeSelectors.a']);
  });

  it("answers 404 for an unknown application and for another account's", async () => {
    const appId = await createApp(t);
    const other = await t.newAccount();
    for (const key of [undefined, other.key]) {
      const id = key ? appId : 'doesnotexist';
      expectErrorBody(await t.get(`/mc/apps/${id}/region-settings`, key), 404);
      expectErrorBody(await t.put(`/mc/apps/${id}/region-settings`, {}, key), 404);
    }
    expect((await t.get(`/mc/apps/${appId}/region-settings`)).body.allowedRegionIds).toEqual(['DE', 'NY']);
  });
});

describe('GET/PUT /mc/apps/{appId}/autoscaling', () => {
  it('reads and sets the bounds; the application runs min instances', async () => {
    const appId = await createApp(t, { containerTemplates: [minimalTemplate()] });
    const got = await t.get(`/mc/apps/${appId}/autoscaling`);
    expect(got.status).toBe(200);
    expectSchema(AutoScaling, got.body);
    expect(got.body).toEqual({ min: 1, max: 3 });
    const podsBefore = (await t.get(`/mc/apps/${appId}`)).body.containerInstances.map((i: { podId: string }) => i.podId);

    const res = await t.put(`/mc/apps/${appId}/autoscaling`, { min: 3, max: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    expect((await t.get(`/mc/apps/${appId}/autoscaling`)).body).toEqual({ min: 3, max: 5 });
    const podsAfter = (await t.get(`/mc/apps/${appId}`)).body.containerInstances.map((i: { podId: string }) => i.podId);
    expect(podsAfter).toHaveLength(3);
    expect(podsAfter[0]).toBe(podsBefore[0]);
  });

  it.each([
    [{ min: 1, max: 1 }, 200, []],
    [{ min: 1000, max: 1000 }, 200, []],
    [{ min: 0, max: 1 }, 400, ['min']],
    [{ min: 1, max: 1001 }, 400, ['max']],
    [{ min: 3, max: 2 }, 400, ['min']],
    [{ min: 1 }, 400, ['max']],
    [{ min: '2', max: '3' }, 200, []],
    [{ min: '1.5', max: 2 }, 400, ['min']],
    [{ min: 'one', max: 2 }, 400, ['min']],
  ])('%j → %i', async (body, status, fields) => {
    const appId = await createApp(t);
    const res = await t.put(`/mc/apps/${appId}/autoscaling`, body);
    if (status === 400) {
      expect(fields400(res)).toEqual(fields);
      expect((await t.get(`/mc/apps/${appId}/autoscaling`)).body).toEqual({ min: 1, max: 3 });
    } else {
      expect(res.status).toBe(200);
    }
  });

  it("answers 404 for an unknown application and for another account's", async () => {
    const appId = await createApp(t);
    const other = await t.newAccount();
    expectErrorBody(await t.get('/mc/apps/doesnotexist/autoscaling'), 404);
    expectErrorBody(await t.get(`/mc/apps/${appId}/autoscaling`, other.key), 404);
    expectErrorBody(await t.put(`/mc/apps/${appId}/autoscaling`, { min: 2, max: 2 }, other.key), 404);
    expect((await t.get(`/mc/apps/${appId}/autoscaling`)).body).toEqual({ min: 1, max: 3 });
  });
});

describe('GET /mc/apps/{appId}/volumes', () => {
  it('lists each volume with one instance per pod, attached while the application runs', async () => {
    const appId = await createApp(t, {
      autoScaling: { min: 2, max: 2 },
      regionSettings: { allowedRegionIds: ['DE', 'NY'] },
      volumes: [
        { name: 'data', size: 5 },
        { name: 'spare', size: 1 },
      ],
      containerTemplates: [
        { ...minimalTemplate(), volumeMounts: [{ name: 'data', mountPath: '/data' }] },
        { ...minimalTemplate(), name: 'sidecar' },
      ],
    });
    const app = (await t.get(`/mc/apps/${appId}`)).body;
    const pods: string[] = [...new Set<string>(app.containerInstances.map((i: { podId: string }) => i.podId))];
    const web = app.containerTemplates[0].id;

    const res = await t.get(`/mc/apps/${appId}/volumes`);
    expect(res.status).toBe(200);
    expectSchema(ListVolumesResponse, res.body);
    const [data, spare] = res.body.items;
    expect(data).toEqual({
      name: 'data',
      id: expect.any(String),
      size: 5,
      totalUsage: 0,
      totalInstancesCount: 2,
      attachedInstancesCount: 2,
      containersCount: 1,
      volumeInstances: pods.map((pod, i) => ({
        id: `${data.id}-${i}`,
        attachedPods: [pod],
        attachedContainers: [`${pod}-${web}`],
        region: ['DE', 'NY'][i],
        status: 'attached',
        size: 5,
        usage: 0,
        set: data.id,
      })),
    });
    expect(spare).toMatchObject({ name: 'spare', containersCount: 0, totalInstancesCount: 2 });
    expect(res.body.meta).toEqual({ totalItems: 2 });
    expect(res.body.cursor).toBeNull();
    expect(res.body.summary).toEqual({ totalPods: 2, totalContainers: 4, totalStorage: 12 });

    // A restart replaces the pods; each instance keeps its id and goes to the pod in its place.
    expect((await t.post(`/mc/apps/${appId}/restart`)).status).toBe(200);
    const restarted = (await t.get(`/mc/apps/${appId}/volumes`)).body.items[0].volumeInstances;
    expect(restarted.map((v: { id: string }) => v.id)).toEqual([`${data.id}-0`, `${data.id}-1`]);
    for (const v of restarted) expect(pods).not.toContain(v.attachedPods[0]);

    // Undeployed: the instances stay (they are persistent), detached.
    expect((await t.post(`/mc/apps/${appId}/undeploy`)).status).toBe(200);
    const stopped = (await t.get(`/mc/apps/${appId}/volumes`)).body;
    expect(stopped.items[0].volumeInstances.map((v: { id: string; status: string; attachedPods: string[] }) => [v.id, v.status, v.attachedPods])).toEqual([
      [`${data.id}-0`, 'detached', []],
      [`${data.id}-1`, 'detached', []],
    ]);
    expect(stopped.items[0].attachedInstancesCount).toBe(0);
    expect(stopped.summary).toEqual({ totalPods: 0, totalContainers: 0, totalStorage: 12 });
  });

  it("answers an empty list for an application without volumes, 404 for an unknown one and another account's", async () => {
    const appId = await createApp(t);
    expect((await t.get(`/mc/apps/${appId}/volumes`)).body).toEqual({
      items: [],
      meta: { totalItems: 0 },
      cursor: null,
      summary: { totalPods: 0, totalContainers: 0, totalStorage: 0 },
    });
    expectErrorBody(await t.get('/mc/apps/doesnotexist/volumes'), 404);
    const other = await t.newAccount();
    expectErrorBody(await t.get(`/mc/apps/${appId}/volumes`, other.key), 404);
  });
});
