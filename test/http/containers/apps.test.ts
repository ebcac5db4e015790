import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Application, ContainerTemplate, IdResponse } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { appBody, cdnEndpoint, createApp, createAppWithTemplate, digest, expectSchema, fields400, fullTemplate, ID, minimalTemplate } from './fixtures.js';

let t: TestContext;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('POST /mc/apps and GET /mc/apps/{appId}', () => {
  it('creates an application without containers and reads it back in full', async () => {
    const res = await t.post(
      '/mc/apps',
      appBody({
        terminationGracePeriodSeconds: 45,
        repositorySettings: { repositoryName: 'site', owner: 'me' },
        regionSettings: { allowedRegionIds: ['DE', 'NY', 'DE'], requiredRegionIds: ['DE'], maxAllowedRegions: 2, nodeSelectors: { disk: 'ssd' } },
        volumes: [{ name: 'data', size: 5 }],
      }),
    );
    expect(res.status).toBe(201);
    expectSchema(IdResponse, res.body);
    expect(res.body).toEqual({ id: expect.stringMatching(ID) });

    const got = await t.get(`/mc/apps/${res.body.id}`);
    expect(got.status).toBe(200);
    expectSchema(Application, got.body);
    // Without endpoints there is no display endpoint: the platform's model leaves it out rather than null.
    expect(got.body).not.toHaveProperty('displayEndpoint');
    expect(got.body).toEqual({
      id: res.body.id,
      name: 'my app-1',
      status: 'inactive',
      runtimeType: 'shared',
      regionSettings: {
        allowedRegionIds: ['DE', 'NY'],
        requiredRegionIds: ['DE'],
        maxAllowedRegions: 2,
        provisioningType: 'dynamic',
        nodeSelectors: { disk: 'ssd' },
      },
      containerTemplates: [],
      containerInstances: [],
      volumes: [{ name: 'data', size: 5 }],
      autoScaling: { min: 1, max: 3 },
      networkSettings: { ingressBandwidthLimit: expect.any(Number), egressBandwidthLimit: expect.any(Number) },
      repositorySettings: { templateRepository: null, repositoryName: 'site', owner: 'me' },
      terminationGracePeriodSeconds: 45,
    });
  });

  it('creates an application with containers: every field present, instances per pod, display endpoint', async () => {
    const id = await createApp(t, { autoScaling: { min: 2, max: 4 }, containerTemplates: [fullTemplate(), { ...minimalTemplate(), imageTag: 'latest' }] });
    const got = await t.get(`/mc/apps/${id}`);
    expect(got.status).toBe(200);
    expectSchema(Application, got.body);
    const app = got.body;
    // A new application with containers is rolled out: progressing until jobDelayMs has passed.
    expect(app.status).toBe('progressing');
    expect(app).not.toHaveProperty('repositorySettings');
    expect(app.terminationGracePeriodSeconds).toBeNull();
    expect(app.volumes).toEqual([]);
    expect(app.regionSettings).toEqual({
      allowedRegionIds: ['DE', 'NY'],
      requiredRegionIds: ['DE'],
      maxAllowedRegions: null,
      provisioningType: 'static',
      nodeSelectors: null,
    });
    expect(app.containerTemplates).toHaveLength(2);
    for (const tpl of app.containerTemplates) expectSchema(ContainerTemplate, tpl);
    const [api, web] = app.containerTemplates;
    expect(api.id).toMatch(ID);
    expect(web.id).toMatch(ID);
    expect(api.id).not.toBe(web.id);
    expect(web).toMatchObject({
      name: 'web',
      image: 'library/nginx:latest',
      imageDigest: null,
      imagePullPolicy: 'always',
      entryPoint: { command: null, commandArray: [], arguments: null, argumentsArray: [], workingDirectory: null },
      probes: {},
      environmentVariables: [],
      endpoints: [],
      volumeMounts: [],
    });
    expect(app.displayEndpoint).toEqual({ id: api.endpoints[0].id, address: api.endpoints[0].publicHost, type: 'cdn' });
    // Two pods (autoScaling.min), each running both containers.
    expect(app.containerInstances).toHaveLength(4);
    const pods = new Set(app.containerInstances.map((i: { podId: string }) => i.podId));
    expect(pods.size).toBe(2);
    for (const i of app.containerInstances) {
      expect([api.id, web.id]).toContain(i.templateId);
      expect(i.nodeIpAddress).toMatch(/^10\.\d+\.\d+\.\d+$/);
    }
    // Reads are stable.
    expect((await t.get(`/mc/apps/${id}`)).body).toEqual(app);
    t.clock.advance(t.config.jobDelayMs);
    expect((await t.get(`/mc/apps/${id}`)).body).toEqual({ ...app, status: 'active' });
  });

  it('names the invalid field as the client sent it', async () => {
    const res = await t.post('/mc/apps', appBody({ containerTemplates: [minimalTemplate(), { ...minimalTemplate(), name: 'b', imageDigest: 'sha256:xyz' }] }));
    expectErrorBody(res, 400, '/mc/apps');
    expect(fields400(res)).toEqual(['containerTemplates[1].imageDigest']);
    expect(res.body.ErrorKey).toBeUndefined();
  });

  it.each([
    ['a'.repeat(100), 201],
    ['a'.repeat(101), 400],
    ['', 400],
    ['my app-1', 201],
    ['tab\there', 201],
    ['my_app', 400],
    ['app!', 400],
    ['äpp', 400],
  ])('application name %j → %i', async (name, status) => {
    const res = await t.post('/mc/apps', appBody({ name }));
    if (status === 400) expect(fields400(res)).toEqual(['name']);
    else expect(res.status).toBe(201);
  });

  it.each([
    [0, 400],
    [1, 201],
    [300, 201],
    [301, 400],
  ])('terminationGracePeriodSeconds %i → %i', async (value, status) => {
    const res = await t.post('/mc/apps', appBody({ terminationGracePeriodSeconds: value }));
    if (status === 400) expect(fields400(res)).toEqual(['terminationGracePeriodSeconds']);
    else expect(res.status).toBe(201);
  });

  it('rejects an empty containerTemplates list, a missing required field and an unknown runtime', async () => {
    expect(fields400(await t.post('/mc/apps', appBody({ containerTemplates: [] })))).toEqual(['containerTemplates']);
    const { autoScaling: _a, ...noScaling } = appBody();
    expect(fields400(await t.post('/mc/apps', noScaling))).toEqual(['autoScaling']);
    expect(fields400(await t.post('/mc/apps', appBody({ runtimeType: 'dedicated' })))).toEqual(['runtimeType']);
  });

  it('rejects a container id on create: the new application has no containers', async () => {
    const res = await t.post('/mc/apps', appBody({ containerTemplates: [{ ...minimalTemplate(), id: 'abcdefabcdef' }] }));
    expect(fields400(res)).toEqual(['containerTemplates[0].id']);
  });

  it('rejects two containers with the same name', async () => {
    const res = await t.post('/mc/apps', appBody({ containerTemplates: [minimalTemplate(), minimalTemplate()] }));
    expect(fields400(res)).toEqual(['containerTemplates[1].name']);
  });

  it('answers 404 for an unknown application', async () => {
    expectErrorBody(await t.get('/mc/apps/doesnotexist'), 404, '/mc/apps/doesnotexist');
  });
});

describe('PUT /mc/apps/{appId} (full replacement)', () => {
  it('replaces every field; kept containers keep identity and generated values, others come and go', async () => {
    const appId = await createApp(t, {
      terminationGracePeriodSeconds: 60,
      repositorySettings: { owner: 'me' },
      volumes: [{ name: 'data', size: 5 }],
      containerTemplates: [fullTemplate(), { ...minimalTemplate(), name: 'gone' }],
    });
    const before = (await t.get(`/mc/apps/${appId}`)).body;
    const kept = before.containerTemplates[0];

    const replacement = {
      name: 'renamed app',
      runtimeType: 'reserved',
      autoScaling: { min: 1, max: 1 },
      regionSettings: { allowedRegionIds: ['DE', 'NY'], requiredRegionIds: ['DE'] },
      containerTemplates: [
        { ...fullTemplate(), id: kept.id, imagePullPolicy: 'ifNotPresent', endpoints: [fullTemplate().endpoints[0], cdnEndpoint('extra')] },
        { ...minimalTemplate(), name: 'new' },
      ],
    };
    const res = await t.put(`/mc/apps/${appId}`, replacement);
    expect(res.status).toBe(200);
    expectSchema(IdResponse, res.body);
    expect(res.body).toEqual({ id: appId });

    const after = (await t.get(`/mc/apps/${appId}`)).body;
    expectSchema(Application, after);
    expect(after).toMatchObject({
      id: appId,
      name: 'renamed app',
      runtimeType: 'reserved',
      autoScaling: { min: 1, max: 1 },
      terminationGracePeriodSeconds: null,
      volumes: [],
    });
    expect(after).not.toHaveProperty('repositorySettings');
    expect(after.containerTemplates.map((c: { name: string }) => c.name)).toEqual(['api', 'new']);
    const [api, added] = after.containerTemplates;
    expect(api.id).toBe(kept.id);
    expect(api.packageId).toBe(kept.packageId);
    expect(api.imagePullPolicy).toBe('ifNotPresent');
    // The endpoint sent again keeps its generated values; the dropped one is gone; the new one is new.
    expect(api.endpoints).toHaveLength(2);
    expect(api.endpoints[0]).toEqual(kept.endpoints[0]);
    expect(api.endpoints[1].displayName).toBe('extra');
    expect(api.endpoints[1].id).not.toBe(kept.endpoints[1].id);
    expect(added.id).toMatch(ID);
    expect(before.containerTemplates.map((c: { id: string }) => c.id)).not.toContain(added.id);
    // One pod now (autoScaling.min 1), running both containers.
    expect(after.containerInstances).toHaveLength(2);
  });

  it('gives a kept container a new package when its image changes', async () => {
    const { appId, template } = await createAppWithTemplate(t, minimalTemplate());
    const res = await t.put(`/mc/apps/${appId}`, appBody({ containerTemplates: [{ ...minimalTemplate(), id: template.id, imageTag: '1.27' }] }));
    expect(res.status).toBe(200);
    const after = (await t.get(`/mc/apps/${appId}`)).body.containerTemplates[0];
    expect(after.id).toBe(template.id);
    expect(after.packageId).not.toBe(template.packageId);
    expect(after.image).toBe('library/nginx:1.27');
  });

  it("rejects an id that is not one of this application's containers, naming containerTemplates[i].id", async () => {
    const { appId, template } = await createAppWithTemplate(t, minimalTemplate());
    const other = await createAppWithTemplate(t, minimalTemplate());
    for (const id of [other.template.id, 'zzzzzzzzzzzz', '']) {
      const res = await t.put(
        `/mc/apps/${appId}`,
        appBody({
          containerTemplates: [
            { ...minimalTemplate(), id: template.id },
            { ...minimalTemplate(), name: 'b', id },
          ],
        }),
      );
      expect(fields400(res)).toEqual(['containerTemplates[1].id']);
    }
    const twice = await t.put(
      `/mc/apps/${appId}`,
      appBody({
        containerTemplates: [
          { ...minimalTemplate(), id: template.id },
          { ...minimalTemplate(), name: 'b', id: template.id },
        ],
      }),
    );
    expect(fields400(twice)).toEqual(['containerTemplates[1].id']);
    // Nothing changed.
    expect((await t.get(`/mc/apps/${appId}`)).body.containerTemplates).toEqual([template]);
  });

  it('treats a null id as a new container', async () => {
    const { appId, template } = await createAppWithTemplate(t, minimalTemplate());
    const res = await t.put(`/mc/apps/${appId}`, appBody({ containerTemplates: [{ ...minimalTemplate(), id: null }] }));
    expect(res.status).toBe(200);
    expect((await t.get(`/mc/apps/${appId}`)).body.containerTemplates[0].id).not.toBe(template.id);
  });

  it('applies the same limits as create', async () => {
    const appId = await createApp(t);
    const put = (over: Record<string, unknown>) => t.put(`/mc/apps/${appId}`, appBody({ containerTemplates: [minimalTemplate()], ...over }));
    expect(fields400(await put({ containerTemplates: [] }))).toEqual(['containerTemplates']);
    expect(fields400(await t.put(`/mc/apps/${appId}`, appBody()))).toEqual(['containerTemplates']);
    expect(fields400(await put({ name: 'a'.repeat(101) }))).toEqual(['name']);
    expect((await put({ name: 'a'.repeat(100) })).status).toBe(200);
    expect(fields400(await put({ name: 'bad/name' }))).toEqual(['name']);
    expect(fields400(await put({ terminationGracePeriodSeconds: 0 }))).toEqual(['terminationGracePeriodSeconds']);
    expect(fields400(await put({ terminationGracePeriodSeconds: 301 }))).toEqual(['terminationGracePeriodSeconds']);
    expect((await put({ terminationGracePeriodSeconds: 1 })).status).toBe(200);
    expect((await put({ terminationGracePeriodSeconds: 300 })).status).toBe(200);
    expect(fields400(await put({ containerTemplates: [{ ...minimalTemplate(), imageDigest: `sha256:${'a'.repeat(63)}` }] }))).toEqual([
      'containerTemplates[0].imageDigest',
    ]);
    expect((await put({ containerTemplates: [{ ...minimalTemplate(), imageDigest: digest }] })).status).toBe(200);
    expect(fields400(await put({ containerTemplates: [{ ...minimalTemplate(), endpoints: [{ displayName: 'x' }] }] }))).toEqual([
      'containerTemplates[0].endpoints[0].cdn',
    ]);
  });

  it('answers 404 for an unknown application', async () => {
    expectErrorBody(await t.put('/mc/apps/doesnotexist', appBody({ containerTemplates: [minimalTemplate()] })), 404);
  });
});
