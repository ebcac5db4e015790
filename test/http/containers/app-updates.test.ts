import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application, IdResponse } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { cdnEndpoint, createApp, expectSchema, fields400, fullTemplate, minimalTemplate } from './fixtures.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp();
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

describe('PATCH /mc/apps/{appId}', () => {
  it('changes only the fields sent; null keeps the value', async () => {
    const appId = await createApp(t, {
      terminationGracePeriodSeconds: 30,
      repositorySettings: { owner: 'me' },
      volumes: [{ name: 'data', size: 5 }],
      containerTemplates: [fullTemplate()],
    });
    const before = await read(appId);
    const res = await t.patch(`/mc/apps/${appId}`, { name: 'renamed', runtimeType: 'reserved', containerTemplates: null, volumes: null });
    expect(res.status).toBe(200);
    expectSchema(IdResponse, res.body);
    expect(res.body).toEqual({ id: appId });
    const after = await read(appId);
    expect(after).toEqual({ ...before, name: 'renamed', runtimeType: 'reserved' });

    expect((await t.patch(`/mc/apps/${appId}`, { name: null })).status).toBe(200);
    expect((await read(appId)).name).toBe('renamed');
  });

  it('merges regionSettings member by member and moves endpoint addresses to the new regions', async () => {
    const appId = await createApp(t, {
      regionSettings: { allowedRegionIds: ['DE', 'NY'], requiredRegionIds: ['DE'], nodeSelectors: { disk: 'ssd' } },
      containerTemplates: [{ ...minimalTemplate(), endpoints: [cdnEndpoint('public')] }],
    });
    const endpoint = (await read(appId)).containerTemplates[0].endpoints[0];
    const de = endpoint.publicIpAddresses.find((a: { region: string }) => a.region === 'DE');

    expect((await t.patch(`/mc/apps/${appId}`, { regionSettings: { allowedRegionIds: ['DE', 'SG'] } })).status).toBe(200);
    const after = await read(appId);
    expect(after.regionSettings).toEqual({
      allowedRegionIds: ['DE', 'SG'],
      requiredRegionIds: ['DE'],
      maxAllowedRegions: null,
      provisioningType: 'static',
      nodeSelectors: { disk: 'ssd' },
    });
    const moved = after.containerTemplates[0].endpoints[0];
    expect(moved.publicIpAddresses.map((a: { region: string }) => a.region)).toEqual(['DE', 'SG']);
    expect(moved.publicIpAddresses[0]).toEqual(de);

    // Inside regionSettings, null clears the member.
    expect((await t.patch(`/mc/apps/${appId}`, { regionSettings: { nodeSelectors: null } })).status).toBe(200);
    expect((await read(appId)).regionSettings.nodeSelectors).toBeNull();
  });

  it('replaces the containers when containerTemplates is sent, matching ids as a replacement does', async () => {
    const appId = await createApp(t, { containerTemplates: [minimalTemplate(), { ...minimalTemplate(), name: 'gone' }] });
    const [kept] = (await read(appId)).containerTemplates;
    const res = await t.patch(`/mc/apps/${appId}`, {
      containerTemplates: [
        { ...minimalTemplate(), id: kept.id, imageTag: '2.0' },
        { ...minimalTemplate(), name: 'new' },
      ],
    });
    expect(res.status).toBe(200);
    const after = await read(appId);
    expect(after.containerTemplates.map((c: { name: string }) => c.name)).toEqual(['web', 'new']);
    expect(after.containerTemplates[0]).toMatchObject({ id: kept.id, imageTag: '2.0', image: 'library/nginx:2.0' });
    expect(fields400(await t.patch(`/mc/apps/${appId}`, { containerTemplates: [{ ...minimalTemplate(), id: 'zzzzzzzzzzzz' }] }))).toEqual([
      'containerTemplates[0].id',
    ]);
    expect(fields400(await t.patch(`/mc/apps/${appId}`, { containerTemplates: [] }))).toEqual(['containerTemplates']);
  });

  it('replaces the volumes when sent; a volume that stays keeps its id', async () => {
    const appId = await createApp(t, {
      volumes: [
        { name: 'data', size: 5 },
        { name: 'cache', size: 1 },
      ],
      containerTemplates: [minimalTemplate()],
    });
    const idOf = async (name: string) => (await t.get(`/mc/apps/${appId}/volumes`)).body.items.find((v: { name: string }) => v.name === name)?.id;
    const dataId = await idOf('data');
    expect(
      (
        await t.patch(`/mc/apps/${appId}`, {
          volumes: [
            { name: 'data', size: 10 },
            { name: 'logs', size: 2 },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await read(appId)).volumes).toEqual([
      { name: 'data', size: 10 },
      { name: 'logs', size: 2 },
    ]);
    expect(await idOf('data')).toBe(dataId);
    expect(await idOf('cache')).toBeUndefined();
  });

  it('validates what is sent, naming the field', async () => {
    const appId = await createApp(t);
    expect(fields400(await t.patch(`/mc/apps/${appId}`, { name: 'bad_name' }))).toEqual(['name']);
    expect(fields400(await t.patch(`/mc/apps/${appId}`, { name: 'a'.repeat(101) }))).toEqual(['name']);
    expect(fields400(await t.patch(`/mc/apps/${appId}`, { runtimeType: 'dedicated' }))).toEqual(['runtimeType']);
    expect(fields400(await t.patch(`/mc/apps/${appId}`, { autoScaling: { min: 0, max: 1 } }))).toEqual(['autoScaling.min']);
    expect(fields400(await t.patch(`/mc/apps/${appId}`, { autoScaling: { min: 3, max: 2 } }))).toEqual(['autoScaling.min']);
    expect(fields400(await t.patch(`/mc/apps/${appId}`, { volumes: [{ name: 'v', size: 101 }] }))).toEqual(['volumes[0].size']);
    expect((await read(appId)).name).toBe('my app-1');
  });

  it("answers 404 for an unknown application and for another account's, leaving it unchanged", async () => {
    const appId = await createApp(t);
    expectErrorBody(await t.patch('/mc/apps/doesnotexist', { name: 'x' }), 404, '/mc/apps/doesnotexist');
    const other = await t.newAccount();
    expectErrorBody(await t.patch(`/mc/apps/${appId}`, { name: 'x' }, other.key), 404);
    expect((await read(appId)).name).toBe('my app-1');
  });
});

describe('min ≤ max on create and replace too', () => {
  it('names autoScaling.min', async () => {
    expect(fields400(await t.post('/mc/apps', { name: 'a', runtimeType: 'shared', autoScaling: { min: 5, max: 4 }, regionSettings: {} }))).toEqual([
      'autoScaling.min',
    ]);
    const appId = await createApp(t);
    const body = { name: 'a', runtimeType: 'shared', autoScaling: { min: 5, max: 4 }, regionSettings: {}, containerTemplates: [minimalTemplate()] };
    expect(fields400(await t.put(`/mc/apps/${appId}`, body))).toEqual(['autoScaling.min']);
    expect((await t.post('/mc/apps', { ...body, autoScaling: { min: 4, max: 4 } })).status).toBe(201);
  });
});

describe('DELETE /mc/apps/{appId}', () => {
  it('deletes the application: 200 with no body, then 404 for it and for a second delete', async () => {
    const appId = await createApp(t, { containerTemplates: [fullTemplate()] });
    const res = await t.del(`/mc/apps/${appId}`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    expectErrorBody(await t.get(`/mc/apps/${appId}`), 404);
    expectErrorBody(await t.del(`/mc/apps/${appId}`), 404, `/mc/apps/${appId}`);
    await t.restart();
    expectErrorBody(await t.get(`/mc/apps/${appId}`), 404);
  });

  it("answers 404 for another account's application and leaves it in place", async () => {
    const appId = await createApp(t);
    const other = await t.newAccount();
    expectErrorBody(await t.del(`/mc/apps/${appId}`, undefined, other.key), 404);
    expect((await t.get(`/mc/apps/${appId}`)).status).toBe(200);
  });
});
