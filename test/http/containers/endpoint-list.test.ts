import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EndpointUpdateResponse, ListEndpointsResponse } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { anycastEndpoint, cdnEndpoint, createAppWithTemplate, expectSchema, fields400, fullTemplate, ID, minimalTemplate } from './fixtures.js';

let t: TestContext;
let appId: string;
let template: Record<string, any>;
beforeEach(async () => {
  t = await createTestApp();
  ({ appId, template } = await createAppWithTemplate(t, fullTemplate()));
});
afterEach(async () => {
  await t.close();
});

const listEndpoints = async (key?: string) => {
  const res = await t.get(`/mc/apps/${appId}/endpoints`, key);
  expect(res.status).toBe(200);
  expectSchema(ListEndpointsResponse, res.body);
  return res.body;
};

describe('GET /mc/apps/{appId}/endpoints', () => {
  it('lists the endpoints of every container with their container, on one page', async () => {
    const second = (await t.post(`/mc/apps/${appId}/containers`, { ...minimalTemplate(), name: 'second', endpoints: [anycastEndpoint('udp')] })).body;
    expect(await listEndpoints()).toEqual({
      items: [
        { ...template.endpoints[0], containerName: 'api', containerId: template.id },
        { ...template.endpoints[1], containerName: 'api', containerId: template.id },
        { ...second.endpoints[0], containerName: 'second', containerId: second.id },
      ],
      meta: { totalItems: 3 },
      cursor: null,
    });
  });

  it("answers 404 for an unknown application and for another account's", async () => {
    expectErrorBody(await t.get('/mc/apps/doesnotexist/endpoints'), 404, '/mc/apps/doesnotexist/endpoints');
    const other = await t.newAccount();
    expectErrorBody(await t.get(`/mc/apps/${appId}/endpoints`, other.key), 404);
  });
});

describe('POST /mc/apps/{appId}/containers/{containerId}/endpoints', () => {
  const url = (containerId = template.id) => `/mc/apps/${appId}/containers/${containerId}/endpoints`;

  it('adds an endpoint to the container (201 with its id) and shows it in the lists', async () => {
    const res = await t.post(url(), cdnEndpoint('extra', { isSslEnabled: false }));
    expect(res.status).toBe(201);
    expectSchema(EndpointUpdateResponse, res.body);
    expect(res.body).toEqual({ id: expect.stringMatching(ID) });
    const added = (await listEndpoints()).items[2];
    expect(added).toMatchObject({
      id: res.body.id,
      displayName: 'extra',
      type: 'cdn',
      isSslEnabled: false,
      pullZoneId: null,
      containerId: template.id,
      portMappings: [{ containerPort: 8080, exposedPort: 80, protocols: ['tcp'] }],
    });
    expect(added.publicHost).toMatch(/^extra-[a-z0-9]{8}\./);
    const container = (await t.get(`/mc/apps/${appId}/containers/${template.id}`)).body;
    expect(container.endpoints.map((e: { displayName: string }) => e.displayName)).toEqual(['Public API', 'dns', 'extra']);
  });

  it('validates the endpoint, naming the field', async () => {
    expect(fields400(await t.post(url(), { displayName: 'x' }))).toEqual(['cdn']);
    expect(fields400(await t.post(url(), { ...cdnEndpoint('x'), ...anycastEndpoint('x') }))).toEqual(['anycast']);
    expect(fields400(await t.post(url(), cdnEndpoint('dns')))).toEqual(['displayName']);
    expect(fields400(await t.post(url(), cdnEndpoint('a'.repeat(51))))).toEqual(['displayName']);
    expect((await t.post(url(), cdnEndpoint('a'.repeat(50)))).status).toBe(201);
    expect(fields400(await t.post(url(), cdnEndpoint('p', { portMappings: [{ containerPort: 70000 }] })))).toEqual(['cdn.portMappings[0].containerPort']);
    expect(fields400(await t.post(url(), cdnEndpoint('p', { pullZoneId: 999 })))).toEqual(['cdn.pullZoneId']);
  });

  it("answers 404 for an unknown container, an unknown application and another account's", async () => {
    expectErrorBody(await t.post(url('zzzzzzzzzzzz'), cdnEndpoint('x')), 404);
    expectErrorBody(await t.post(`/mc/apps/doesnotexist/containers/${template.id}/endpoints`, cdnEndpoint('x')), 404);
    const other = await t.newAccount();
    expectErrorBody(await t.post(url(), cdnEndpoint('x'), other.key), 404);
    expect((await listEndpoints()).items).toHaveLength(2);
  });
});

describe('DELETE /mc/apps/{appId}/endpoints/{endpointId}', () => {
  const url = (key: string) => `/mc/apps/${appId}/endpoints/${encodeURIComponent(key)}`;

  it('deletes an endpoint named by its id or its display name; a second delete is 404', async () => {
    const [byId, byName] = template.endpoints;
    for (const key of [byId.id, byName.displayName]) {
      const res = await t.del(url(key));
      expect(res.status).toBe(200);
      expect(res.body).toBe('');
      expectErrorBody(await t.del(url(key)), 404, url(key));
    }
    expect((await listEndpoints()).items).toEqual([]);
    expect((await t.get(`/mc/apps/${appId}`)).body).not.toHaveProperty('displayEndpoint');
  });

  it("answers 404 for another account's endpoint and leaves it in place", async () => {
    const other = await t.newAccount();
    expectErrorBody(await t.del(url(template.endpoints[0].id), undefined, other.key), 404);
    expectErrorBody(await t.del('/mc/apps/doesnotexist/endpoints/x'), 404);
    expect((await listEndpoints()).items).toHaveLength(2);
  });
});
