import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Application, ContainerTemplate } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { appBody, cdnEndpoint, createAppWithTemplate, expectSchema, ID, minimalTemplate } from './fixtures.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time), emptied before each test.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

interface Ids {
  appId: string;
  containerId: string;
}

/** Every container operation, with a valid body, against application `appId` and its container. */
const operations = ({ appId, containerId }: Ids): [string, string, unknown][] => [
  ['POST', '/mc/apps', appBody()],
  ['GET', '/mc/apps', undefined],
  ['GET', `/mc/apps/${appId}`, undefined],
  ['PUT', `/mc/apps/${appId}`, appBody({ containerTemplates: [{ ...minimalTemplate(), id: containerId, endpoints: [cdnEndpoint('public')] }] })],
  ['PATCH', `/mc/apps/${appId}`, { name: 'patched' }],
  ['POST', `/mc/apps/${appId}/deploy`, undefined],
  ['POST', `/mc/apps/${appId}/undeploy`, undefined],
  ['POST', `/mc/apps/${appId}/restart`, undefined],
  ['POST', `/mc/apps/${appId}/containers`, { ...minimalTemplate(), name: 'other' }],
  ['GET', `/mc/apps/${appId}/containers/${containerId}`, undefined],
  ['PATCH', `/mc/apps/${appId}/containers/${containerId}`, { imageTag: '9' }],
  ['PUT', `/mc/apps/${appId}/containers/${containerId}/env`, { A: '1' }],
  ['GET', `/mc/apps/${appId}/endpoints`, undefined],
  ['POST', `/mc/apps/${appId}/containers/${containerId}/endpoints`, cdnEndpoint('more')],
  ['PUT', `/mc/apps/${appId}/endpoints/public`, cdnEndpoint('public')],
  ['GET', `/mc/apps/${appId}/region-settings`, undefined],
  ['PUT', `/mc/apps/${appId}/region-settings`, { allowedRegionIds: ['DE'] }],
  ['GET', `/mc/apps/${appId}/autoscaling`, undefined],
  ['PUT', `/mc/apps/${appId}/autoscaling`, { min: 1, max: 2 }],
  ['GET', `/mc/apps/${appId}/volumes`, undefined],
  ['DELETE', `/mc/apps/${appId}/endpoints/public`, undefined],
  ['DELETE', `/mc/apps/${appId}/containers/${containerId}`, undefined],
  ['DELETE', `/mc/apps/${appId}`, undefined],
];

/** Operations that name no application: the account's own list and create. */
const ACCOUNT_WIDE = new Set(['POST /mc/apps', 'GET /mc/apps']);

async function setUp(): Promise<Ids> {
  const { appId, template } = await createAppWithTemplate(t, { ...minimalTemplate(), endpoints: [cdnEndpoint('public')] });
  return { appId, containerId: template.id as string };
}

describe('authentication and ownership', () => {
  it('answers 401 without a key and with a wrong key, on every operation', async () => {
    const ids = await setUp();
    for (const [method, url, body] of operations(ids)) {
      expectErrorBody(await t.request(method as 'GET', url, body, null), 401, url);
      expectErrorBody(await t.request(method as 'GET', url, body, 'not-a-key'), 401, url);
    }
  });

  it('refuses an account API key with 403: these operations call for a personal key', async () => {
    const ids = await setUp();
    const accountKey = (await t.app.services.apiKeys.issue(t.store, t.accountId, 'account', ['FullAccess'])).Key;
    for (const [method, url, body] of operations(ids)) {
      const res = await t.request(method as 'GET', url, body, accountKey);
      expectErrorBody(res, 403, url);
      expect(res.body.ErrorKey).toBeUndefined();
    }
    for (const [method, url, body] of operations(ids)) {
      const bare = url.replace(/^\/mc/, '');
      expectErrorBody(await t.request(method as 'GET', bare, body, accountKey), 403, bare);
    }
  });

  it('lets a read-only key read but refuses it every change with 403', async () => {
    const ids = await setUp();
    const before = (await t.get(`/mc/apps/${ids.appId}`)).body;
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    for (const [method, url, body] of operations(ids)) {
      const res = await t.request(method as 'GET', url, body, readOnly);
      if (method === 'GET') expect(res.status, url).toBe(200);
      else expectErrorBody(res, 403, url);
    }
    expect((await t.get(`/mc/apps/${ids.appId}`)).body).toEqual(before);
    expect((await t.get('/mc/apps')).body.meta.totalItems).toBe(1);
  });

  it("hides another account's application behind 404, and leaves it unchanged", async () => {
    const ids = await setUp();
    const before = (await t.get(`/mc/apps/${ids.appId}`)).body;
    const other = await t.newAccount();
    for (const [method, url, body] of operations(ids)) {
      if (ACCOUNT_WIDE.has(`${method} ${url}`)) continue;
      expectErrorBody(await t.request(method as 'GET', url, body, other.key), 404, url);
    }
    expect((await t.get(`/mc/apps/${ids.appId}`)).body).toEqual(before);
  });

  it('runs every operation for the owner', async () => {
    const ids = await setUp();
    for (const [method, url, body] of operations(ids)) {
      const res = await t.request(method as 'GET', url, body);
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
  });
});

describe('the same operations at /apps (without /mc)', () => {
  it('create, read, add a container, replace and update an endpoint', async () => {
    const created = await t.post('/apps', appBody());
    expect(created.status).toBe(201);
    const appId = created.body.id as string;
    expect(appId).toMatch(ID);
    const added = await t.post(`/apps/${appId}/containers`, { ...minimalTemplate(), endpoints: [cdnEndpoint('public')] });
    expect(added.status).toBe(201);
    expectSchema(ContainerTemplate, added.body);
    const renamed = await t.put(`/apps/${appId}/endpoints/public`, cdnEndpoint('front'));
    expect(renamed).toMatchObject({ status: 200, body: { id: added.body.endpoints[0].id } });
    const got = await t.get(`/apps/${appId}`);
    expect(got.status).toBe(200);
    expectSchema(Application, got.body);
    expect(got.body.containerTemplates[0].endpoints[0].displayName).toBe('front');
    expect((await t.get(`/mc/apps/${appId}`)).body).toEqual(got.body);
    const replaced = await t.put(`/apps/${appId}`, appBody({ containerTemplates: [{ ...minimalTemplate(), id: added.body.id }] }));
    expect(replaced).toMatchObject({ status: 200, body: { id: appId } });
    expectErrorBody(await t.get('/apps/unknownapp'), 404, '/apps/unknownapp');
    const invalid = await t.post('/apps', appBody({ name: 'bad_name' }));
    expectErrorBody(invalid, 400, '/apps');
    expect(invalid.body.errors.map((e: { field: string }) => e.field)).toEqual(['name']);
  });
});

describe('content types', () => {
  it.each(['application/json', 'text/json', 'application/merge-patch+json', 'text/json; charset=utf-8', 'application/merge-patch+json; charset=utf-8'])(
    'accepts %s',
    async (type) => {
      const created = await t.request('POST', '/mc/apps', JSON.stringify(appBody()), undefined, { 'content-type': type });
      expect(created.status).toBe(201);
      const appId = created.body.id as string;
      const added = await t.request(
        'POST',
        `/mc/apps/${appId}/containers`,
        JSON.stringify({ ...minimalTemplate(), endpoints: [cdnEndpoint('p')] }),
        undefined,
        { 'content-type': type },
      );
      expect(added.status).toBe(201);
      const replaced = await t.request(
        'PUT',
        `/mc/apps/${appId}`,
        JSON.stringify(appBody({ containerTemplates: [{ ...minimalTemplate(), id: added.body.id, endpoints: [cdnEndpoint('p')] }] })),
        undefined,
        { 'content-type': type },
      );
      expect(replaced.status).toBe(200);
      const updated = await t.request('PUT', `/mc/apps/${appId}/endpoints/p`, JSON.stringify(cdnEndpoint('q')), undefined, { 'content-type': type });
      expect(updated.status).toBe(200);
    },
  );

  it('answers 415 to text/plain and 400 to broken JSON', async () => {
    const ids = await setUp();
    for (const [method, url, body] of operations(ids)) {
      if (body === undefined) continue;
      expectErrorBody(await t.request(method as 'POST', url, JSON.stringify(body), undefined, { 'content-type': 'text/plain' }), 415, url);
      expectErrorBody(await t.request(method as 'POST', url, '{"name":', undefined, { 'content-type': 'text/json' }), 400, url);
    }
  });
});

describe('durability', () => {
  it('reads everything back after a restart, and keeps working on it', async () => {
    const { appId } = await createAppWithTemplate(t, { ...minimalTemplate(), endpoints: [cdnEndpoint('public')] });
    expect((await t.put(`/mc/apps/${appId}/endpoints/public`, cdnEndpoint('renamed'))).status).toBe(200);
    const before = (await t.get(`/mc/apps/${appId}`)).body;
    await t.restart();
    const after = await t.get(`/mc/apps/${appId}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before);
    expect(after.body.containerTemplates[0].endpoints[0].displayName).toBe('renamed');
    expect((await t.post(`/mc/apps/${appId}/containers`, { ...minimalTemplate(), name: 'second' })).status).toBe(201);
  });
});
