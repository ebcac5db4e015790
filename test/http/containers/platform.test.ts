/** The platform around an account's applications: its limits, the nodes its instances run on, and the regions. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ListNodesResponse, ListRegionsResponse, OptimalBaseRegionResponse, UserLimits } from '../../../src/schemas/container-platform.js';
import { CONTAINER_REGIONS } from '../../../src/domain/reference-data/container-regions.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { appBody, createApp, expectSchema, fields400, minimalTemplate } from './fixtures.js';

const DELAY = 5000;

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp({ jobDelayMs: DELAY });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

const nodesOf = async (appId: string): Promise<string[]> =>
  (await t.get(`/mc/apps/${appId}`)).body.containerInstances.map((i: { nodeIpAddress: string }) => i.nodeIpAddress);

describe('GET /mc/limits', () => {
  it("gives the account's limits and how many applications it has", async () => {
    const res = await t.get('/mc/limits');
    expect(res.status).toBe(200);
    expectSchema(UserLimits, res.body);
    const limits = {
      maxNumberOfApplications: 100,
      existingNumberOfApplications: 0,
      maxNumberOfRegionsPerApplication: null,
      maxNumberOfInstancesPerRegion: 1000,
      maxNumberOfInstancesPerApplication: 1000,
      maxNumberOfVolumesPerApplication: 10,
      maxVolumeSize: 100,
    };
    expect(res.body).toEqual(limits);
    await createApp(t);
    await createApp(t);
    expect((await t.get('/limits')).body).toEqual({ ...limits, existingNumberOfApplications: 2 });
    const other = await t.newAccount();
    expect((await t.get('/mc/limits', other.key)).body.existingNumberOfApplications).toBe(0);
  });

  it('holds to them: the application count (409), volumes per application and their size (400)', async () => {
    for (let i = 0; i < 100; i++) await createApp(t);
    const refused = await t.post('/mc/apps', appBody());
    expectErrorBody(refused, 409);
    expect(refused.body.detail).toMatch(/limit of 100 applications/);
    expect((await t.get('/mc/limits')).body.existingNumberOfApplications).toBe(100);
    // Another account has its own count.
    const other = await t.newAccount();
    expect((await t.post('/mc/apps', appBody(), other.key)).status).toBe(201);

    const tooMany = Array.from({ length: 11 }, (_, i) => ({ name: `v${i}`, size: 1 }));
    expect(fields400(await t.post('/mc/apps', appBody({ volumes: tooMany }), other.key))).toEqual(['volumes']);
    expect(fields400(await t.post('/mc/apps', appBody({ volumes: [{ name: 'big', size: 101 }] }), other.key))).toEqual(['volumes[0].size']);
  });
});

describe('GET /mc/nodes and /mc/nodes/plain', () => {
  it("lists the nodes of the account's running instances, in address order, a page at a time", async () => {
    const first = await createApp(t, { autoScaling: { min: 3, max: 3 }, containerTemplates: [minimalTemplate()] });
    const second = await createApp(t, { autoScaling: { min: 2, max: 2 }, containerTemplates: [minimalTemplate()] });
    await createApp(t);
    const expected = [...new Set([...(await nodesOf(first)), ...(await nodesOf(second))])].sort((a, b) => {
      const [pa, pb] = [a, b].map((x) => x.split('.').map(Number));
      for (let i = 0; i < 4; i++) if (pa![i] !== pb![i]) return pa![i]! - pb![i]!;
      return 0;
    });
    const plain = await t.get('/mc/nodes/plain');
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual(expected);

    const page = await t.get('/mc/nodes?limit=2');
    expectSchema(ListNodesResponse, page.body);
    expect(page.body).toMatchObject({ items: expected.slice(0, 2), meta: { totalItems: expected.length }, cursor: expect.any(String) });
    const rest = await t.get(`/mc/nodes?limit=1000&nextCursor=${encodeURIComponent(page.body.cursor)}`);
    expect(rest.body).toEqual({ items: expected.slice(2), meta: { totalItems: expected.length }, cursor: null });
    expect((await t.get('/nodes')).body).toEqual({ items: expected, meta: { totalItems: expected.length }, cursor: null });

    // A stopped application's pods run nowhere; another account sees none of these nodes.
    await t.post(`/mc/apps/${second}/undeploy`);
    t.clock.advance(DELAY);
    expect((await t.get('/mc/nodes/plain')).body).toEqual([...new Set(await nodesOf(first))].sort((a, b) => expected.indexOf(a) - expected.indexOf(b)));
    const other = await t.newAccount();
    expect((await t.get('/mc/nodes/plain', other.key)).body).toEqual([]);
  });

  it('refuses a cursor of another list or account, and a limit out of bounds', async () => {
    const regions = (await t.get('/mc/regions?limit=1')).body.cursor as string;
    expect(fields400(await t.get(`/mc/nodes?nextCursor=${encodeURIComponent(regions)}`))).toEqual(['nextCursor']);
    expect(fields400(await t.get('/mc/nodes?nextCursor=forged'))).toEqual(['nextCursor']);
    expect(fields400(await t.get('/mc/nodes?limit=0'))).toEqual(['limit']);
    const other = await t.newAccount();
    expect(fields400(await t.get(`/mc/regions?nextCursor=${encodeURIComponent(regions)}`, other.key))).toEqual(['nextCursor']);
  });
});

describe('GET /mc/regions and /mc/regions/optimal', () => {
  it('lists the regions applications can run in, a page at a time', async () => {
    const res = await t.get('/mc/regions');
    expect(res.status).toBe(200);
    expectSchema(ListRegionsResponse, res.body);
    expect(res.body.meta).toEqual({ totalItems: CONTAINER_REGIONS.length });
    expect(res.body.cursor).toBeNull();
    expect(res.body.items).toContainEqual({ id: 'DE', name: 'Frankfurt', group: 'Europe', hasAnycastSupport: true, hasCapacity: true });
    expect(res.body.items.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining(['DE', 'UK', 'NY', 'LA', 'SG', 'SYD']));

    const first = (await t.get('/mc/regions?limit=4')).body;
    const second = (await t.get(`/mc/regions?limit=100&nextCursor=${encodeURIComponent(first.cursor)}`)).body;
    expect([...first.items, ...second.items]).toEqual(res.body.items);
    expect((await t.get('/regions')).body).toEqual(res.body);
  });

  it('offers a base region: the one a token names, else the default', async () => {
    const res = await t.get('/mc/regions/optimal');
    expect(res.status).toBe(200);
    expectSchema(OptimalBaseRegionResponse, res.body);
    expect(res.body).toEqual({ region: { id: 'DE', name: 'Frankfurt', group: 'Europe', hasAnycastSupport: true, hasCapacity: true } });
    expect((await t.get('/mc/regions/optimal?cdnServerToken=sg')).body.region.id).toBe('SG');
    expect((await t.get('/regions/optimal?cdnServerToken=edge-7f3a')).body.region.id).toBe('DE');
  });

  it('places applications only in listed regions, whatever the letter case', async () => {
    const res = await t.post('/mc/apps', appBody({ regionSettings: { allowedRegionIds: ['de', 'Ny'], requiredRegionIds: ['DE'] } }));
    expect(res.status).toBe(201);
    expect((await t.get(`/mc/apps/${res.body.id}/region-settings`)).body).toMatchObject({ allowedRegionIds: ['DE', 'NY'], requiredRegionIds: ['DE'] });
    expect(fields400(await t.post('/mc/apps', appBody({ regionSettings: { allowedRegionIds: ['DE', 'MARS'] } })))).toEqual([
      'regionSettings.allowedRegionIds[1]',
    ]);
    expect(fields400(await t.put(`/mc/apps/${res.body.id}/region-settings`, { requiredRegionIds: ['XX'] }))).toEqual(['requiredRegionIds[0]']);
    expect(fields400(await t.patch(`/mc/apps/${res.body.id}`, { regionSettings: { allowedRegionIds: ['nowhere'] } }))).toEqual([
      'regionSettings.allowedRegionIds[0]',
    ]);
  });
});

describe('who may read the platform', () => {
  it('lets a read-only key read everything, and refuses an account key (these operations call for a personal key)', async () => {
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    const accountKey = (await t.app.services.apiKeys.issue(t.store, t.accountId, 'account', ['FullAccess'])).Key;
    for (const path of ['/limits', '/nodes', '/nodes/plain', '/regions', '/regions/optimal']) {
      for (const prefix of ['/mc', '']) {
        expect((await t.get(`${prefix}${path}`, readOnly)).status, `${prefix}${path}`).toBe(200);
        expectErrorBody(await t.get(`${prefix}${path}`, accountKey), 403);
        expectErrorBody(await t.get(`${prefix}${path}`, null), 401);
      }
    }
  });
});
