import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ContainerTemplate, DEFAULT_STICKY_COOKIE, PROBE_DEFAULTS } from '../../../src/schemas/containers.js';
import { createTestApp, expectErrorBody, type TestContext } from '../../helpers/app.js';
import { anycastEndpoint, cdnEndpoint, createApp, digest, expectSchema, fields400, fullTemplate, ID, minimalTemplate, seedPullZone } from './fixtures.js';

let t: TestContext;
let appId: string;
// One app for the file (building one is most of a short test's time); each test works on resources of its own.
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  appId = await createApp(t);
});

const add = (body: unknown) => t.post(`/mc/apps/${appId}/containers`, body);
const ADDRESS = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

describe('POST /mc/apps/{appId}/containers', () => {
  it('adds a template and answers 201 with the full container template', async () => {
    const res = await add(fullTemplate());
    expect(res.status).toBe(201);
    expectSchema(ContainerTemplate, res.body);
    const domain = t.config.containerDomain.replace(/\./g, '\\.');
    const ip = { address: expect.stringMatching(ADDRESS), region: expect.any(String) };
    expect(res.body).toEqual({
      id: expect.stringMatching(ID),
      name: 'api',
      packageId: expect.stringMatching(ID),
      image: 'registry.example.net/team/api:2.1',
      imageName: 'nginx',
      imageNamespace: 'library',
      imageTag: '1.25-alpine',
      imageRegistryId: '1',
      imageDigest: digest,
      imagePullPolicy: 'always',
      entryPoint: { command: 'node', commandArray: ['node'], arguments: 'server.js', argumentsArray: ['server.js'], workingDirectory: '/app' },
      probes: {
        startup: {
          initialDelaySeconds: 2,
          periodSeconds: 5,
          timeoutSeconds: 3,
          failureThreshold: 10,
          successThreshold: 1,
          tcpSocket: { request: { portNumber: 8080 } },
        },
        readiness: { ...PROBE_DEFAULTS, periodSeconds: 15, httpGet: { request: { path: '/ready', portNumber: 8080 }, response: { expectedStatusCode: 'ok' } } },
        liveness: { ...PROBE_DEFAULTS, grpc: { request: { portNumber: 9000, serviceName: 'health' } } },
      },
      environmentVariables: [
        { name: 'MODE', value: 'prod' },
        { name: 'EMPTY', value: '' },
      ],
      endpoints: [
        {
          id: expect.stringMatching(ID),
          displayName: 'Public API',
          publicHost: expect.stringMatching(new RegExp(`^public-api-[a-z0-9]{8}\\.${domain}$`)),
          type: 'cdn',
          isSslEnabled: true,
          pullZoneId: null,
          portMappings: [{ containerPort: 8080, exposedPort: 80, protocols: ['tcp'] }],
          stickySessions: { enabled: true, sessionHeaders: ['X-Session'], cookieName: 'sid' },
          internalIpAddresses: [ip, ip],
          publicIpAddresses: [ip, ip],
        },
        {
          id: expect.stringMatching(ID),
          displayName: 'dns',
          publicHost: expect.stringMatching(new RegExp(`^dns-[a-z0-9]{8}\\.${domain}$`)),
          type: 'anycast',
          isSslEnabled: false,
          pullZoneId: null,
          portMappings: [{ containerPort: 53, exposedPort: 53, protocols: ['udp', 'tcp'] }],
          internalIpAddresses: [ip, ip],
          publicIpAddresses: [ip, ip],
        },
      ],
      volumeMounts: [{ name: 'data', mountPath: '/var/lib/data' }],
    });
    const [cdn, anycast] = res.body.endpoints;
    // The application runs in DE (required) and NY (allowed): one address per region.
    expect(cdn.internalIpAddresses.map((a: { region: string }) => a.region)).toEqual(['DE', 'NY']);
    expect(cdn.publicHost.startsWith(`public-api-${cdn.id.slice(0, 8)}.`)).toBe(true);
    // An anycast endpoint has one public address, announced in every region.
    expect(new Set(anycast.publicIpAddresses.map((a: { address: string }) => a.address)).size).toBe(1);
  });

  it('stores the template in the application; generated values are stable across reads', async () => {
    const added = (await add(fullTemplate())).body;
    const first = (await t.get(`/mc/apps/${appId}`)).body;
    const second = (await t.get(`/mc/apps/${appId}`)).body;
    expect(first.containerTemplates).toEqual([added]);
    expect(second).toEqual(first);
  });

  it('fills defaults for a minimal template', async () => {
    const res = await add({
      ...minimalTemplate(),
      endpoints: [{ displayName: 'Only Port', cdn: { portMappings: [{ containerPort: 3000 }] } }],
      probes: { liveness: {} },
    });
    expect(res.status).toBe(201);
    expectSchema(ContainerTemplate, res.body);
    expect(res.body).toMatchObject({
      image: 'library/nginx:1.25-alpine',
      imageDigest: null,
      imagePullPolicy: 'ifNotPresent',
      probes: { liveness: { ...PROBE_DEFAULTS } },
      endpoints: [
        {
          type: 'cdn',
          isSslEnabled: false,
          pullZoneId: null,
          portMappings: [{ containerPort: 3000, exposedPort: 3000, protocols: ['tcp'] }],
        },
      ],
    });
    expect(res.body.endpoints[0]).not.toHaveProperty('stickySessions');
    expect(res.body.endpoints[0].publicHost).toMatch(/^only-port-/);
  });

  it('names a cookie for sticky sessions asked for without one', async () => {
    const res = await add({
      ...minimalTemplate(),
      endpoints: [
        cdnEndpoint('a', { stickySessions: { sessionHeaders: ['X-A'] } }),
        cdnEndpoint('b', { stickySessions: { sessionHeaders: ['X-B'], cookieName: '' } }),
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.endpoints.map((e: { stickySessions: unknown }) => e.stickySessions)).toEqual([
      { enabled: true, sessionHeaders: ['X-A'], cookieName: DEFAULT_STICKY_COOKIE },
      { enabled: true, sessionHeaders: ['X-B'], cookieName: DEFAULT_STICKY_COOKIE },
    ]);
  });

  it('derives the image reference with its digest when none is sent', async () => {
    const res = await add({ ...minimalTemplate(), imageDigest: digest });
    expect(res.body.image).toBe(`library/nginx:1.25-alpine@${digest}`);
  });

  it('links an existing pull zone of the account, returned as a string', async () => {
    await seedPullZone(t, t.accountId, 77);
    const res = await add({ ...minimalTemplate(), endpoints: [cdnEndpoint('cdn', { pullZoneId: 77 })] });
    expect(res.status).toBe(201);
    expect(res.body.endpoints[0].pullZoneId).toBe('77');
  });

  it('rejects a pull zone that does not exist or belongs to another account', async () => {
    const other = await t.newAccount();
    await seedPullZone(t, other.accountId, 78);
    for (const id of [78, 999]) {
      const res = await add({ ...minimalTemplate(), endpoints: [anycastEndpoint('a'), cdnEndpoint('cdn', { pullZoneId: id })] });
      expect(fields400(res)).toEqual(['endpoints[1].cdn.pullZoneId']);
    }
    expect((await t.get(`/mc/apps/${appId}`)).body.containerTemplates).toEqual([]);
  });

  describe('limits', () => {
    it.each([
      ['a'.repeat(50), 201],
      ['a'.repeat(51), 400],
      ['', 400],
    ])('name %j → %i', async (name, status) => {
      const res = await add({ ...minimalTemplate(), name });
      if (status === 400) expect(fields400(res)).toEqual(['name']);
      else expect(res.status).toBe(201);
    });

    const imageCases: [string, string, number][] = [];
    for (const field of ['imageName', 'imageNamespace']) {
      for (const v of ['nginx', 'library/nginx', 'my-org.io/team__app', 'a..b', 'A1/b-2']) imageCases.push([field, v, 201]);
      for (const v of ['', '-nginx', 'nginx-', 'a...b', 'ng inx', 'a//-b', 'ngi:nx']) imageCases.push([field, v, 400]);
    }
    for (const v of ['latest', '1.25-alpine', 'v1__2', 'A.b']) imageCases.push(['imageTag', v, 201]);
    for (const v of ['', 'a/b', '.1', '1.', 'a b', 'a...b']) imageCases.push(['imageTag', v, 400]);
    it.each(imageCases)('%s %j → %i', async (field, value, status) => {
      const res = await add({ ...minimalTemplate(), [field]: value });
      if (status === 400) expect(fields400(res)).toEqual([field]);
      else expect(res.status, JSON.stringify(res.body)).toBe(201);
    });

    it.each([
      [`sha256:${'a'.repeat(64)}`, 201],
      [`sha256:${'0123456789abcdefghijklmnopqrstuvwxyz'.repeat(2).slice(0, 64)}`, 201],
      [null, 201],
      [`sha256:${'a'.repeat(63)}`, 400],
      [`sha256:${'a'.repeat(65)}`, 400],
      [`sha256:${'A'.repeat(64)}`, 400],
      [`sha512:${'a'.repeat(64)}`, 400],
      ['', 400],
      [` sha256:${'a'.repeat(64)}`, 400],
    ])('imageDigest %j → %i', async (imageDigest, status) => {
      const res = await add({ ...minimalTemplate(), imageDigest });
      if (status === 400) expect(fields400(res)).toEqual(['imageDigest']);
      else expect(res.status).toBe(201);
    });

    it('requires the image parts and allows only the two pull policies', async () => {
      for (const f of ['imageName', 'imageNamespace', 'imageTag', 'imageRegistryId', 'name']) {
        const body: Record<string, unknown> = minimalTemplate();
        delete body[f];
        expect(fields400(await add(body))).toEqual([f]);
      }
      expect(fields400(await add({ ...minimalTemplate(), imagePullPolicy: 'never' }))).toEqual(['imagePullPolicy']);
    });

    it.each([
      ['a'.repeat(50), 201],
      ['a'.repeat(51), 400],
      ['', 400],
    ])('endpoint displayName %j → %i', async (displayName, status) => {
      const res = await add({ ...minimalTemplate(), endpoints: [anycastEndpoint('x'), cdnEndpoint(displayName)] });
      if (status === 400) expect(fields400(res)).toEqual(['endpoints[1].displayName']);
      else expect(res.status).toBe(201);
    });

    it('names nested fields as sent', async () => {
      const res = await add({
        ...minimalTemplate(),
        probes: { readiness: { periodSeconds: 0 } },
        endpoints: [cdnEndpoint('a', { portMappings: [{ containerPort: 70000 }] })],
        volumeMounts: [{ name: 'data', mountPath: 'relative' }],
      });
      expect(fields400(res).sort()).toEqual(['endpoints[0].cdn.portMappings[0].containerPort', 'probes.readiness.periodSeconds', 'volumeMounts[0].mountPath']);
    });
  });

  describe('rules across containers', () => {
    it('needs exactly one of cdn and anycast per endpoint', async () => {
      expect(fields400(await add({ ...minimalTemplate(), endpoints: [{ displayName: 'x' }] }))).toEqual(['endpoints[0].cdn']);
      const both = { ...cdnEndpoint('x'), anycast: anycastEndpoint().anycast };
      expect(fields400(await add({ ...minimalTemplate(), endpoints: [both] }))).toEqual(['endpoints[0].anycast']);
    });

    it('keeps container names and endpoint display names unique in the application', async () => {
      expect((await add({ ...minimalTemplate(), endpoints: [cdnEndpoint('public')] })).status).toBe(201);
      expect(fields400(await add(minimalTemplate()))).toEqual(['name']);
      expect(fields400(await add({ ...minimalTemplate(), name: 'b', endpoints: [anycastEndpoint('x'), cdnEndpoint('public')] }))).toEqual([
        'endpoints[1].displayName',
      ]);
      expect(fields400(await add({ ...minimalTemplate(), name: 'c', endpoints: [cdnEndpoint('y'), anycastEndpoint('y')] }))).toEqual([
        'endpoints[1].displayName',
      ]);
    });
  });

  it('answers 404 for an unknown application', async () => {
    expectErrorBody(await t.post('/mc/apps/nope/containers', minimalTemplate()), 404, '/mc/apps/nope/containers');
  });
});
