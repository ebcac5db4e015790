/**
 * What can be done to one persistent volume: rename or grow it, detach it from every container,
 * and delete its instances once no pod uses them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteAllVolumeInstancesResponse, DetachVolumeResponse, ListVolumesResponse, UpdateVolumeResponse } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { createApp, expectSchema, fields400, minimalTemplate } from './fixtures.js';

const DELAY = 5000;

let t: TestContext;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp({ jobDelayMs: DELAY });
});
afterAll(async () => {
  await t.close();
});

/** Two pods; `data` mounted by `web`, `spare` by nobody. */
async function appWithVolumes(): Promise<string> {
  return createApp(t, {
    autoScaling: { min: 2, max: 2 },
    volumes: [
      { name: 'data', size: 5 },
      { name: 'spare', size: 1 },
    ],
    containerTemplates: [
      { ...minimalTemplate(), volumeMounts: [{ name: 'data', mountPath: '/data' }] },
      { ...minimalTemplate(), name: 'sidecar', volumeMounts: [{ name: 'data', mountPath: '/shared' }] },
    ],
  });
}

const volumes = async (appId: string) => {
  const res = await t.get(`/mc/apps/${appId}/volumes`);
  expect(res.status).toBe(200);
  expectSchema(ListVolumesResponse, res.body);
  return res.body;
};
const volume = async (appId: string, name: string) => (await volumes(appId)).items.find((v: { name: string }) => v.name === name);
const instanceIds = async (appId: string, name: string): Promise<string[]> => (await volume(appId, name)).volumeInstances.map((i: { id: string }) => i.id);
const mounts = async (appId: string) =>
  (await t.get(`/mc/apps/${appId}`)).body.containerTemplates.map((c: { volumeMounts: { name: string }[] }) => c.volumeMounts.map((m) => m.name));

describe('PATCH /mc/apps/{appId}/volumes/{volumeId}', () => {
  it('renames a volume (the mounts follow) and grows it, found by name or by id', async () => {
    const appId = await appWithVolumes();
    const { id } = await volume(appId, 'data');
    const res = await t.patch(`/mc/apps/${appId}/volumes/data`, { name: 'records', size: 8 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSchema(UpdateVolumeResponse, res.body);
    expect(res.body).toEqual({ name: 'records', size: 8 });
    expect(await mounts(appId)).toEqual([['records'], ['records']]);
    expect((await t.get(`/mc/apps/${appId}`)).body.volumes).toEqual([
      { name: 'records', size: 8 },
      { name: 'spare', size: 1 },
    ]);
    // The id stays, and so do its instances; null keeps a value.
    expect((await t.patch(`/mc/apps/${appId}/volumes/${id}`, { name: null, size: 10 })).body).toEqual({ name: 'records', size: 10 });
    expect(await instanceIds(appId, 'records')).toEqual([`${id}-0`, `${id}-1`]);
    // A change of configuration rolls the application out again.
    expect((await t.get(`/mc/apps/${appId}`)).body.status).toBe('progressing');
  });

  it('refuses to shrink a volume, to take another volume’s name, and values out of bounds', async () => {
    const appId = await appWithVolumes();
    expect(fields400(await t.patch(`/mc/apps/${appId}/volumes/data`, { size: 4 }))).toEqual(['size']);
    expect(fields400(await t.patch(`/mc/apps/${appId}/volumes/data`, { name: 'spare' }))).toEqual(['name']);
    expect(fields400(await t.patch(`/mc/apps/${appId}/volumes/data`, { size: 101 }))).toEqual(['size']);
    expect(fields400(await t.patch(`/mc/apps/${appId}/volumes/data`, { name: '' }))).toEqual(['name']);
    expect((await volume(appId, 'data')).size).toBe(5);
  });
});

describe('POST /mc/apps/{appId}/volumes/{volumeId}/detach', () => {
  it('unmounts the volume from every container; its instances stay, detached', async () => {
    const appId = await appWithVolumes();
    const before = await instanceIds(appId, 'data');
    expect((await volume(appId, 'data')).attachedInstancesCount).toBe(2);
    const res = await t.post(`/mc/apps/${appId}/volumes/data/detach`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSchema(DetachVolumeResponse, res.body);
    expect(res.body).toEqual({ name: 'data' });
    expect(await mounts(appId)).toEqual([[], []]);
    const detached = await volume(appId, 'data');
    expect(detached).toMatchObject({ containersCount: 0, attachedInstancesCount: 0, totalInstancesCount: 2 });
    expect(detached.volumeInstances.map((i: { id: string; status: string; attachedPods: string[] }) => [i.id, i.status, i.attachedPods])).toEqual(
      before.map((id) => [id, 'detached', []]),
    );
    // Detaching a detached volume changes nothing.
    expect((await t.post(`/mc/apps/${appId}/volumes/data/detach`)).body).toEqual({ name: 'data' });
  });
});

describe('DELETE /mc/apps/{appId}/volumes/{volumeId} and …/instances/{instanceId}', () => {
  it('refuses while a container of the deployed application mounts the volume', async () => {
    const appId = await appWithVolumes();
    const [first] = await instanceIds(appId, 'data');
    expect(fields400(await t.del(`/mc/apps/${appId}/volumes/data`))).toEqual(['volumeId']);
    expect(fields400(await t.del(`/mc/apps/${appId}/volumes/data/instances/${first}`))).toEqual(['volumeId']);
    expect(await instanceIds(appId, 'data')).toHaveLength(2);
  });

  it('deletes every instance of a detached volume; the volume stays, and a deployed container mounting it gets new ones', async () => {
    const appId = await appWithVolumes();
    const before = await instanceIds(appId, 'data');
    await t.post(`/mc/apps/${appId}/volumes/data/detach`);
    const res = await t.del(`/mc/apps/${appId}/volumes/data`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSchema(DeleteAllVolumeInstancesResponse, res.body);
    expect(res.body).toEqual({ ids: before });
    const gone = await volumes(appId);
    expect(gone.items[0]).toMatchObject({ name: 'data', totalInstancesCount: 0, volumeInstances: [] });
    expect(gone.summary.totalStorage).toBe(2);
    expectErrorBody(await t.del(`/mc/apps/${appId}/volumes/data`), 404);

    // Mounted again by a running application: fresh, empty instances with new ids.
    const web = (await t.get(`/mc/apps/${appId}`)).body.containerTemplates[0].id;
    expect((await t.patch(`/mc/apps/${appId}/containers/${web}`, { volumeMounts: [{ name: 'data', mountPath: '/data' }] })).status).toBe(200);
    const fresh = await instanceIds(appId, 'data');
    expect(fresh).toHaveLength(2);
    for (const id of fresh) expect(before).not.toContain(id);
  });

  it('deletes one instance of a volume no container mounts', async () => {
    const appId = await appWithVolumes();
    const [first, second] = await instanceIds(appId, 'spare');
    const res = await t.del(`/mc/apps/${appId}/volumes/spare/instances/${first}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: first });
    expect(await instanceIds(appId, 'spare')).toEqual([second]);
    expectErrorBody(await t.del(`/mc/apps/${appId}/volumes/spare/instances/${first}`), 404);
    expectErrorBody(await t.del(`/mc/apps/${appId}/volumes/spare/instances/nosuchinstance`), 404);
    // Deleting instances is no configuration change: nothing is rolled out.
    t.clock.advance(DELAY);
    expect((await t.get(`/mc/apps/${appId}`)).body.status).toBe('active');
    await t.del(`/mc/apps/${appId}/volumes/spare/instances/${second}`);
    expect((await t.get(`/mc/apps/${appId}`)).body.status).toBe('active');
  });

  it('lets the instances of a stopped application go; they come back empty when it is deployed again', async () => {
    const appId = await appWithVolumes();
    const before = await instanceIds(appId, 'data');
    expect((await t.post(`/mc/apps/${appId}/undeploy`)).status).toBe(200);
    // Still stopping: its pods still use them.
    expect(fields400(await t.del(`/mc/apps/${appId}/volumes/data`))).toEqual(['volumeId']);
    t.clock.advance(DELAY);
    expect((await t.del(`/mc/apps/${appId}/volumes/data/instances/${before[1]}`)).body).toEqual({ id: before[1] });
    expect(await instanceIds(appId, 'data')).toEqual([before[0]]);
    expect((await t.post(`/mc/apps/${appId}/deploy`)).status).toBe(200);
    const after = await instanceIds(appId, 'data');
    expect(after[0]).toBe(before[0]);
    expect(after).toHaveLength(2);
    expect(after[1]).not.toBe(before[1]);
  });
});

describe('volume operations: who may call them', () => {
  it("answers 404 for an unknown volume, application, or another account's", async () => {
    const appId = await appWithVolumes();
    const [instance] = await instanceIds(appId, 'spare');
    const other = await t.newAccount();
    for (const [app, name, key] of [
      [appId, 'nosuchvolume', undefined],
      ['nosuchapplication', 'spare', undefined],
      [appId, 'spare', other.key],
    ] as const) {
      expectErrorBody(await t.patch(`/mc/apps/${app}/volumes/${name}`, { size: 50 }, key), 404, `/mc/apps/${app}/volumes/${name}`);
      expectErrorBody(await t.post(`/mc/apps/${app}/volumes/${name}/detach`, undefined, key), 404);
      expectErrorBody(await t.del(`/mc/apps/${app}/volumes/${name}`, undefined, key), 404);
      expectErrorBody(await t.del(`/mc/apps/${app}/volumes/${name}/instances/${instance}`, undefined, key), 404);
    }
    expect((await volume(appId, 'spare')).size).toBe(1);
    expect(await instanceIds(appId, 'spare')).toHaveLength(2);
  });

  it('refuses a read-only key every change, at /mc and at the root', async () => {
    const appId = await appWithVolumes();
    const [instance] = await instanceIds(appId, 'spare');
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    for (const prefix of ['/mc', '']) {
      for (const res of [
        await t.patch(`${prefix}/apps/${appId}/volumes/spare`, { size: 50 }, readOnly),
        await t.post(`${prefix}/apps/${appId}/volumes/spare/detach`, undefined, readOnly),
        await t.del(`${prefix}/apps/${appId}/volumes/spare`, undefined, readOnly),
        await t.del(`${prefix}/apps/${appId}/volumes/spare/instances/${instance}`, undefined, readOnly),
      ]) {
        expectErrorBody(res, 403);
      }
    }
    expect((await volume(appId, 'spare')).size).toBe(1);
  });

  it('answers at the root as at /mc', async () => {
    const appId = await appWithVolumes();
    expect((await t.patch(`/apps/${appId}/volumes/spare`, { size: 3 })).body).toEqual({ name: 'spare', size: 3 });
    expect((await t.post(`/apps/${appId}/volumes/spare/detach`)).body).toEqual({ name: 'spare' });
  });
});
