import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { createApp, expectSchema, minimalTemplate } from './fixtures.js';

/** Long enough that "before" and "after" a rollout are far apart; the clock is moved by hand. */
const DELAY = 5000;

let t: TestContext;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp({ jobDelayMs: DELAY });
});
afterAll(async () => {
  await t.close();
});

const read = async (appId: string) => {
  const res = await t.get(`/mc/apps/${appId}`);
  expect(res.status).toBe(200);
  expectSchema(Application, res.body);
  return res.body;
};
const status = async (appId: string) => (await read(appId)).status as string;
const podsOf = async (appId: string) => [...new Set((await read(appId)).containerInstances.map((i: { podId: string }) => i.podId))];
const act = (appId: string, action: 'deploy' | 'undeploy' | 'restart', key?: string) => t.post(`/mc/apps/${appId}/${action}`, undefined, key);

/** Answers 200 with an empty body, as the platform does. */
async function expectDone(res: Promise<{ status: number; body: unknown }>): Promise<void> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body).toBe('');
}

describe('application status over time', () => {
  it('create → progressing → active once jobDelayMs has passed, with instances from the start', async () => {
    const appId = await createApp(t, { autoScaling: { min: 2, max: 3 }, containerTemplates: [minimalTemplate()] });
    expect(await status(appId)).toBe('progressing');
    expect(await podsOf(appId)).toHaveLength(2);
    t.clock.advance(DELAY - 1);
    expect(await status(appId)).toBe('progressing');
    t.clock.advance(1);
    expect(await status(appId)).toBe('active');
  });

  it('undeploy → progressing (stopping) → inactive without instances; deploy → progressing → active with the same pods', async () => {
    const appId = await createApp(t, { containerTemplates: [minimalTemplate()] });
    t.clock.advance(DELAY);
    const pods = await podsOf(appId);

    await expectDone(act(appId, 'undeploy'));
    expect(await status(appId)).toBe('progressing');
    expect(await podsOf(appId)).toEqual(pods);
    t.clock.advance(DELAY);
    const stopped = await read(appId);
    expect(stopped.status).toBe('inactive');
    expect(stopped.containerInstances).toEqual([]);

    await expectDone(act(appId, 'undeploy'));
    expect(await status(appId)).toBe('inactive');

    await expectDone(act(appId, 'deploy'));
    expect(await status(appId)).toBe('progressing');
    t.clock.advance(DELAY);
    expect(await status(appId)).toBe('active');
    expect(await podsOf(appId)).toEqual(pods);
  });

  it('deploying an active application changes nothing', async () => {
    const appId = await createApp(t, { containerTemplates: [minimalTemplate()] });
    t.clock.advance(DELAY);
    const before = await read(appId);
    await expectDone(act(appId, 'deploy'));
    expect(await read(appId)).toEqual(before);
  });

  it('restart replaces every pod and keeps the status; a stopped application has nothing to restart', async () => {
    const appId = await createApp(t, { autoScaling: { min: 2, max: 2 }, containerTemplates: [minimalTemplate()] });
    t.clock.advance(DELAY);
    const pods = await podsOf(appId);
    await expectDone(act(appId, 'restart'));
    const after = await read(appId);
    expect(after.status).toBe('active');
    const newPods = await podsOf(appId);
    expect(newPods).toHaveLength(2);
    for (const pod of newPods) expect(pods).not.toContain(pod);

    await expectDone(act(appId, 'undeploy'));
    t.clock.advance(DELAY);
    const stopped = await read(appId);
    await expectDone(act(appId, 'restart'));
    expect(await read(appId)).toEqual(stopped);
  });

  it('a configuration change rolls a deployed application out again; a stopped one stays stopped', async () => {
    const appId = await createApp(t, { containerTemplates: [minimalTemplate()] });
    t.clock.advance(DELAY);
    expect((await t.put(`/mc/apps/${appId}/autoscaling`, { min: 2, max: 4 })).status).toBe(200);
    expect(await status(appId)).toBe('progressing');
    t.clock.advance(DELAY);
    expect(await status(appId)).toBe('active');
    // Sending the same values again is no change.
    expect((await t.put(`/mc/apps/${appId}/autoscaling`, { min: 2, max: 4 })).status).toBe(200);
    expect(await status(appId)).toBe('active');

    await expectDone(act(appId, 'undeploy'));
    t.clock.advance(DELAY);
    expect((await t.put(`/mc/apps/${appId}/autoscaling`, { min: 1, max: 4 })).status).toBe(200);
    expect(await status(appId)).toBe('inactive');
  });

  it('an application without containers is inactive until its first container arrives', async () => {
    const appId = await createApp(t);
    expect(await status(appId)).toBe('inactive');
    await expectDone(act(appId, 'deploy'));
    expect(await status(appId)).toBe('inactive');
    expect((await t.post(`/mc/apps/${appId}/containers`, minimalTemplate())).status).toBe(201);
    expect(await status(appId)).toBe('progressing');
    t.clock.advance(DELAY);
    expect(await status(appId)).toBe('active');
  });

  it('keeps its state across a server restart', async () => {
    const appId = await createApp(t, { containerTemplates: [minimalTemplate()] });
    await expectDone(act(appId, 'undeploy'));
    await t.restart();
    expect(await status(appId)).toBe('progressing');
    t.clock.advance(DELAY);
    expect(await status(appId)).toBe('inactive');
  });
});

describe('with no background delay (jobDelayMs 0)', () => {
  it('every transition completes at once', async () => {
    const fast = await createTestApp({ jobDelayMs: 0 });
    try {
      const appId = (
        await fast.post('/mc/apps', {
          name: 'a',
          runtimeType: 'shared',
          autoScaling: { min: 1, max: 1 },
          regionSettings: {},
          containerTemplates: [minimalTemplate()],
        })
      ).body.id;
      expect((await fast.get(`/mc/apps/${appId}`)).body.status).toBe('active');
      expect((await fast.post(`/mc/apps/${appId}/undeploy`)).status).toBe(200);
      expect((await fast.get(`/mc/apps/${appId}`)).body.status).toBe('inactive');
      expect((await fast.post(`/mc/apps/${appId}/deploy`)).status).toBe(200);
      expect((await fast.get(`/mc/apps/${appId}`)).body.status).toBe('active');
    } finally {
      await fast.close();
    }
  });
});

describe('suspension: the account runs out of funds', () => {
  it('shows every application as suspended; deploy and undeploy answer 409, restart 403; funds bring it back', async () => {
    const appId = await createApp(t, { containerTemplates: [minimalTemplate()] });
    t.clock.advance(DELAY);
    await t.store.accounts.setBalance(t.accountId, 0);
    const suspended = await read(appId);
    expect(suspended.status).toBe('suspended');
    expect(suspended.containerInstances).toEqual([]);
    expect((await t.get('/mc/apps')).body.items[0].status).toBe('suspended');
    for (const action of ['deploy', 'undeploy'] as const) expectErrorBody(await act(appId, action), 409, `/mc/apps/${appId}/${action}`);
    expectErrorBody(await act(appId, 'restart'), 403, `/mc/apps/${appId}/restart`);

    await t.store.accounts.setBalance(t.accountId, 50);
    expect(await status(appId)).toBe('active');
  });
});

describe('errors', () => {
  it.each(['deploy', 'undeploy', 'restart'] as const)("%s: 404 for an unknown application and for another account's, which stays as it was", async (action) => {
    const appId = await createApp(t, { containerTemplates: [minimalTemplate()] });
    expectErrorBody(await act('doesnotexist', action), 404, `/mc/apps/doesnotexist/${action}`);
    const other = await t.newAccount();
    const before = await read(appId);
    expectErrorBody(await act(appId, action, other.key), 404);
    expect(await read(appId)).toEqual(before);
  });
});
