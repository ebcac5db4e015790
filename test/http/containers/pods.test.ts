/** POST /mc/apps/{appId}/pods/{podId}/recreate: one running pod replaced, as a restart replaces them all. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { createApp, minimalTemplate } from './fixtures.js';

const DELAY = 5000;

let t: TestContext;
beforeEach(async () => {
  t = await createTestApp({ jobDelayMs: DELAY });
});
afterEach(async () => {
  await t.close();
});

async function runningApp(): Promise<string> {
  const appId = await createApp(t, {
    autoScaling: { min: 3, max: 3 },
    volumes: [{ name: 'data', size: 2 }],
    containerTemplates: [{ ...minimalTemplate(), volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
  });
  t.clock.advance(DELAY);
  return appId;
}

/** Pod id → node address, in pod order. */
async function pods(appId: string): Promise<[string, string][]> {
  const app = (await t.get(`/mc/apps/${appId}`)).body;
  return app.containerInstances.map((i: { podId: string; nodeIpAddress: string }) => [i.podId, i.nodeIpAddress]);
}

const recreate = (appId: string, podId: string, key?: string) => t.post(`/mc/apps/${appId}/pods/${podId}/recreate`, undefined, key);

describe('POST /mc/apps/{appId}/pods/{podId}/recreate', () => {
  it('replaces the pod with a new one (new id, same place), leaves the others, and keeps the status', async () => {
    const appId = await runningApp();
    const before = await pods(appId);
    const instancesBefore = (await t.get(`/mc/apps/${appId}/volumes`)).body.items[0].volumeInstances.map((i: { id: string }) => i.id);
    const res = await recreate(appId, before[1]![0]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toBe('');
    const after = await pods(appId);
    expect(after).toHaveLength(3);
    expect(after[0]).toEqual(before[0]);
    expect(after[2]).toEqual(before[2]);
    expect(after[1]![0]).not.toBe(before[1]![0]);
    expect((await t.get(`/mc/apps/${appId}`)).body.status).toBe('active');
    // The new pod takes over the volume instance of the old one.
    const volume = (await t.get(`/mc/apps/${appId}/volumes`)).body.items[0];
    expect(volume.volumeInstances.map((i: { id: string }) => i.id)).toEqual(instancesBefore);
    expect(volume.volumeInstances[1].attachedPods).toEqual([after[1]![0]]);
    // The old pod is gone.
    expectErrorBody(await recreate(appId, before[1]![0]), 404);
  });

  it('answers at the root as at /mc', async () => {
    const appId = await runningApp();
    const [[podId]] = (await pods(appId)) as [[string, string]];
    expect((await t.post(`/apps/${appId}/pods/${podId}/recreate`)).status).toBe(200);
    expect((await pods(appId)).map(([id]) => id)).not.toContain(podId);
  });

  it('refuses a pod of an application that is not running (409), and one of a suspended account (403)', async () => {
    const appId = await runningApp();
    const [[podId]] = (await pods(appId)) as [[string, string]];
    await t.post(`/mc/apps/${appId}/undeploy`);
    t.clock.advance(DELAY);
    expectErrorBody(await recreate(appId, podId), 409);
    await t.post(`/mc/apps/${appId}/deploy`);
    expect((await recreate(appId, podId)).status).toBe(200);

    const [[current]] = (await pods(appId)) as [[string, string]];
    await t.store.accounts.setBalance(t.accountId, 0);
    const res = await recreate(appId, current);
    expectErrorBody(res, 403);
    expect(res.body.detail).toMatch(/suspended/);
  });

  it("answers 404 for an unknown pod or application, and for another account's; a read-only key gets 403", async () => {
    const appId = await runningApp();
    const before = await pods(appId);
    const [[podId]] = before as [[string, string]];
    const other = await t.newAccount();
    expectErrorBody(await recreate(appId, 'nosuchpod'), 404, `/mc/apps/${appId}/pods/nosuchpod/recreate`);
    expectErrorBody(await recreate('nosuchapplication', podId), 404);
    expectErrorBody(await recreate(appId, podId, other.key), 404);
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    const refused = await recreate(appId, podId, readOnly);
    expectErrorBody(refused, 403);
    expect(refused.body.detail).toMatch(/read-only/);
    expect(await pods(appId)).toEqual(before);
  });
});
