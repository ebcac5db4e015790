import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ContainerTemplate } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { anycastEndpoint, cdnEndpoint, createAppWithTemplate, digest, expectSchema, fields400, fullTemplate, minimalTemplate } from './fixtures.js';

let t: TestContext;
let appId: string;
let template: Record<string, any>;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  ({ appId, template } = await createAppWithTemplate(t, fullTemplate()));
});

const url = (containerId = template.id, app = appId) => `/mc/apps/${app}/containers/${containerId}`;
const stored = async (containerId = template.id) =>
  (await t.get(`/mc/apps/${appId}`)).body.containerTemplates.find((c: { id: string }) => c.id === containerId);

describe('GET /mc/apps/{appId}/containers/{containerId}', () => {
  it('answers the container template in full', async () => {
    const res = await t.get(url());
    expect(res.status).toBe(200);
    expectSchema(ContainerTemplate, res.body);
    expect(res.body).toEqual(template);
  });

  it("answers 404 for an unknown container, an unknown application and another account's", async () => {
    expectErrorBody(await t.get(url('zzzzzzzzzzzz')), 404, url('zzzzzzzzzzzz'));
    expectErrorBody(await t.get(url(template.id, 'doesnotexist')), 404);
    const other = await t.newAccount();
    expectErrorBody(await t.get(url(), other.key), 404);
    // Another application's container is not this one's.
    const second = await createAppWithTemplate(t, minimalTemplate());
    expectErrorBody(await t.get(url(second.template.id)), 404);
  });
});

describe('PATCH /mc/apps/{appId}/containers/{containerId}', () => {
  it('changes only the fields sent and answers the whole template', async () => {
    const res = await t.patch(url(), {
      imageTag: '3.0',
      imageDigest: null,
      entryPoint: { workingDirectory: '/srv' },
      environmentVariables: [{ name: 'A', value: '1' }],
    });
    expect(res.status).toBe(200);
    expectSchema(ContainerTemplate, res.body);
    expect(res.body).toEqual({
      ...template,
      imageTag: '3.0',
      // The image parts changed, so the reference is rebuilt from them (the digest stays: null keeps it).
      image: `library/nginx:3.0@${digest}`,
      packageId: expect.any(String),
      entryPoint: { ...template.entryPoint, workingDirectory: '/srv' },
      environmentVariables: [{ name: 'A', value: '1' }],
    });
    expect(res.body.packageId).not.toBe(template.packageId);
    expect(await stored()).toEqual(res.body);
  });

  it('keeps the endpoints unless sent; sent endpoints keep their identity by display name', async () => {
    expect((await t.patch(url(), { name: 'renamed' })).body.endpoints).toEqual(template.endpoints);
    const res = await t.patch(url(), { endpoints: [cdnEndpoint('Public API', { isSslEnabled: false }), cdnEndpoint('new')] });
    expect(res.status).toBe(200);
    const [kept, added] = res.body.endpoints;
    expect(kept).toMatchObject({ id: template.endpoints[0].id, publicHost: template.endpoints[0].publicHost, isSslEnabled: false });
    expect(added.displayName).toBe('new');
    expect([template.endpoints[0].id, template.endpoints[1].id]).not.toContain(added.id);
  });

  it('validates what is sent, naming the field', async () => {
    const second = (await t.post(`/mc/apps/${appId}/containers`, { ...minimalTemplate(), name: 'second', endpoints: [anycastEndpoint('udp')] })).body;
    expect(fields400(await t.patch(url(), { name: 'second' }))).toEqual(['name']);
    expect(fields400(await t.patch(url(), { name: 'a'.repeat(51) }))).toEqual(['name']);
    expect(fields400(await t.patch(url(), { imageTag: 'a/b' }))).toEqual(['imageTag']);
    expect(fields400(await t.patch(url(), { imageDigest: 'sha256:xyz' }))).toEqual(['imageDigest']);
    expect(fields400(await t.patch(url(), { endpoints: [{ displayName: 'x' }] }))).toEqual(['endpoints[0].cdn']);
    expect(fields400(await t.patch(url(), { endpoints: [cdnEndpoint('udp')] }))).toEqual(['endpoints[0].displayName']);
    expect(fields400(await t.patch(url(), { probes: { liveness: { periodSeconds: 0 } } }))).toEqual(['probes.liveness.periodSeconds']);
    expect(await stored()).toEqual(template);
    expect(await stored(second.id)).toEqual(second);
  });

  it("answers 404 for an unknown container and for another account's", async () => {
    expectErrorBody(await t.patch(url('zzzzzzzzzzzz'), { name: 'x' }), 404);
    const other = await t.newAccount();
    expectErrorBody(await t.patch(url(), { name: 'x' }, other.key), 404);
    expect(await stored()).toEqual(template);
  });
});

describe('PUT /mc/apps/{appId}/containers/{containerId}/env', () => {
  it('replaces every variable with those sent, in order', async () => {
    const res = await t.put(`${url()}/env`, { B: '2', A: '', PATH_EXTRA: '/opt/bin' });
    expect(res.status).toBe(200);
    expectSchema(ContainerTemplate, res.body);
    expect(res.body).toEqual({
      ...template,
      environmentVariables: [
        { name: 'B', value: '2' },
        { name: 'A', value: '' },
        { name: 'PATH_EXTRA', value: '/opt/bin' },
      ],
    });
    expect(await stored()).toEqual(res.body);
    expect((await t.put(`${url()}/env`, {})).body.environmentVariables).toEqual([]);
  });

  it('rejects non-string values and invalid names, naming the variable', async () => {
    expect(fields400(await t.put(`${url()}/env`, { PORT: 8080 }))).toEqual(['PORT']);
    expect(fields400(await t.put(`${url()}/env`, { 'A=B': 'x' }))).toEqual(['A=B']);
    expect(fields400(await t.put(`${url()}/env`, ['A']))).toEqual(['body']);
    expect(await stored()).toEqual(template);
  });

  it("answers 404 for an unknown container and for another account's", async () => {
    expectErrorBody(await t.put(`${url('zzzzzzzzzzzz')}/env`, { A: '1' }), 404);
    const other = await t.newAccount();
    expectErrorBody(await t.put(`${url()}/env`, { A: '1' }, other.key), 404);
  });
});

describe('DELETE /mc/apps/{appId}/containers/{containerId}', () => {
  it('deletes a container (200, no body); the application keeps the others', async () => {
    const second = (await t.post(`/mc/apps/${appId}/containers`, { ...minimalTemplate(), name: 'second' })).body;
    const res = await t.del(url());
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const app = (await t.get(`/mc/apps/${appId}`)).body;
    expect(app.containerTemplates).toEqual([second]);
    expect(app.containerInstances.map((i: { templateId: string }) => i.templateId)).toEqual([second.id]);
    expectErrorBody(await t.del(url()), 404);
  });

  it("refuses to delete the last container (400), and answers 404 for another account's", async () => {
    const res = await t.del(url());
    expect(fields400(res)).toEqual(['containerId']);
    const other = await t.newAccount();
    expectErrorBody(await t.del(url(), undefined, other.key), 404);
    expect(await stored()).toEqual(template);
  });
});
