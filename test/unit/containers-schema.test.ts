import { describe, it, expect } from 'vitest';
import Fastify from 'fastify';
import type { TSchema } from 'typebox';
import {
  Application,
  ApplicationCreateRequest,
  ApplicationReplaceRequest,
  ContainerEndpointResponse,
  ContainerTemplate,
  ContainerTemplateRequest,
  EndpointUpdateRequest,
  EndpointUpdateResponse,
  IdResponse,
  PORT_PROTOCOLS,
  type ApplicationReplaceRequestT,
  type ApplicationT,
  type ContainerTemplateRequestT,
  type ContainerTemplateT,
} from '../../src/schemas/containers.js';
import { schemaAjv } from '../helpers/schema-ajv.js';

const ajv = schemaAjv();

const check = (schema: TSchema) => {
  const validate = ajv.compile(schema);
  return (value: unknown): boolean => validate(value);
};
type Obj = { properties: Record<string, unknown>; required?: string[] };
const props = (schema: unknown) => Object.keys((schema as Obj).properties);
const required = (schema: unknown) => (schema as Obj).required ?? [];
const prop = (schema: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((s, p) => {
    const o = s as Record<string, unknown>;
    if (p === '[]') return o['items'];
    return (o['properties'] as Record<string, unknown>)[p];
  }, schema);

const digest = `sha256:${'a1'.repeat(32)}`;

const template: ContainerTemplateRequestT = {
  name: 'web',
  image: 'docker.io/library/nginx:1.25-alpine',
  imageName: 'nginx',
  imageNamespace: 'library',
  imageTag: '1.25-alpine',
  imageRegistryId: '42',
  imageDigest: digest,
  imagePullPolicy: 'ifNotPresent',
  entryPoint: { command: 'nginx', commandArray: ['nginx'], arguments: '-g daemon', argumentsArray: ['-g', 'daemon'], workingDirectory: '/' },
  probes: {
    startup: {
      initialDelaySeconds: 5,
      periodSeconds: 10,
      timeoutSeconds: 7,
      failureThreshold: 3,
      successThreshold: 1,
      tcpSocket: { request: { portNumber: 80 } },
    },
    readiness: { httpGet: { request: { path: '/healthz', portNumber: 80 }, response: { expectedStatusCode: 'ok' } } },
    liveness: { grpc: { request: { portNumber: 9000, serviceName: 'health' } } },
  },
  environmentVariables: [{ name: 'MODE', value: 'prod' }],
  endpoints: [
    {
      displayName: 'public',
      cdn: {
        isSslEnabled: true,
        pullZoneId: null,
        stickySessions: { enabled: true, sessionHeaders: ['X-Session'], cookieName: 'sid' },
        portMappings: [{ containerPort: 80, exposedPort: 443, protocols: ['tcp'] }],
      },
    },
    { displayName: 'dns', anycast: { type: 'iPv4', portMappings: [{ containerPort: 53, protocols: ['udp', 'tcp'] }] } },
  ],
  volumeMounts: [{ name: 'data', mountPath: '/var/lib/data' }],
};

const minimalTemplate = { name: 'web', imageName: 'nginx', imageNamespace: 'library', imageTag: 'latest', imageRegistryId: '1' };

const app: ApplicationReplaceRequestT = {
  name: 'my app-1',
  runtimeType: 'shared',
  autoScaling: { min: 1, max: 3 },
  regionSettings: { allowedRegionIds: ['DE', 'NY'], requiredRegionIds: ['DE'], maxAllowedRegions: 2, nodeSelectors: { disk: 'ssd' } },
  terminationGracePeriodSeconds: 30,
  repositorySettings: { templateRepository: null, repositoryName: 'site', owner: 'me' },
  containerTemplates: [{ ...template, id: 'ct-1' }],
  volumes: [{ name: 'data', size: 5 }],
};

const templateResponse: ContainerTemplateT = {
  id: 'ct-1',
  name: 'web',
  packageId: 'pkg-1',
  image: 'docker.io/library/nginx:1.25-alpine',
  imageName: 'nginx',
  imageNamespace: 'library',
  imageTag: '1.25-alpine',
  imageRegistryId: '42',
  imageDigest: null,
  imagePullPolicy: 'always',
  entryPoint: { command: null },
  probes: { readiness: { periodSeconds: 10, httpGet: { request: { path: '/', portNumber: 80 } } } },
  environmentVariables: [{ name: 'MODE', value: 'prod' }],
  endpoints: [
    {
      id: 'ep-1',
      displayName: 'public',
      publicHost: 'web-abc.example.net',
      type: 'cdn',
      isSslEnabled: true,
      pullZoneId: '123',
      portMappings: [{ containerPort: 80, exposedPort: 443, protocols: ['tcp'] }],
      stickySessions: { enabled: false, sessionHeaders: [], cookieName: 'sid' },
      internalIpAddresses: [{ address: '10.0.0.1', region: 'DE' }],
      publicIpAddresses: null,
    },
  ],
  volumeMounts: [{ name: 'data', mountPath: '/data' }],
};

const application: ApplicationT = {
  id: 'app-1',
  name: 'my app',
  displayEndpoint: { id: 'ep-1', address: 'web-abc.example.net', type: 'cdn' },
  status: 'active',
  runtimeType: 'reserved',
  regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'], maxAllowedRegions: null, provisioningType: 'static', nodeSelectors: { disk: 'ssd' } },
  containerTemplates: [templateResponse],
  containerInstances: [{ id: 'ci-1', templateId: 'ct-1', podId: 'pod-1', nodeIpAddress: '10.1.0.1' }],
  volumes: [{ name: 'data', size: 5 }],
  autoScaling: { min: 1, max: 2 },
  networkSettings: { ingressBandwidthLimit: 1000, egressBandwidthLimit: 2000 },
  repositorySettings: { templateRepository: null, repositoryName: null, owner: null },
  terminationGracePeriodSeconds: 30,
};

describe('ContainerTemplateRequest', () => {
  const valid = check(ContainerTemplateRequest);

  it('has every request field of spec 2.2', () => {
    expect(props(ContainerTemplateRequest).sort()).toEqual(
      [
        'name',
        'imageName',
        'imageNamespace',
        'imageTag',
        'imageRegistryId',
        'image',
        'imageDigest',
        'imagePullPolicy',
        'entryPoint',
        'probes',
        'environmentVariables',
        'endpoints',
        'volumeMounts',
      ].sort(),
    );
    expect(required(ContainerTemplateRequest).sort()).toEqual(['imageName', 'imageNamespace', 'imageRegistryId', 'imageTag', 'name']);
    expect(props(prop(ContainerTemplateRequest, 'entryPoint')).sort()).toEqual(
      ['command', 'commandArray', 'arguments', 'argumentsArray', 'workingDirectory'].sort(),
    );
    expect(props(prop(ContainerTemplateRequest, 'probes')).sort()).toEqual(['liveness', 'readiness', 'startup']);
    expect(props(prop(ContainerTemplateRequest, 'probes', 'startup')).sort()).toEqual(
      ['initialDelaySeconds', 'periodSeconds', 'timeoutSeconds', 'failureThreshold', 'successThreshold', 'httpGet', 'tcpSocket', 'grpc'].sort(),
    );
    expect(props(prop(ContainerTemplateRequest, 'probes', 'startup', 'httpGet')).sort()).toEqual(['request', 'response']);
    expect(props(prop(ContainerTemplateRequest, 'probes', 'startup', 'httpGet', 'request')).sort()).toEqual(['path', 'portNumber']);
    expect(props(prop(ContainerTemplateRequest, 'probes', 'startup', 'tcpSocket', 'request'))).toEqual(['portNumber']);
    expect(props(prop(ContainerTemplateRequest, 'probes', 'startup', 'grpc', 'request')).sort()).toEqual(['portNumber', 'serviceName']);
    expect(props(prop(ContainerTemplateRequest, 'environmentVariables', '[]')).sort()).toEqual(['name', 'value']);
    expect(props(prop(ContainerTemplateRequest, 'volumeMounts', '[]')).sort()).toEqual(['mountPath', 'name']);
    expect(props(prop(ContainerTemplateRequest, 'endpoints', '[]')).sort()).toEqual(['anycast', 'cdn', 'displayName']);
    expect(props(prop(ContainerTemplateRequest, 'endpoints', '[]', 'cdn')).sort()).toEqual(['isSslEnabled', 'portMappings', 'pullZoneId', 'stickySessions']);
    expect(props(prop(ContainerTemplateRequest, 'endpoints', '[]', 'cdn', 'portMappings', '[]')).sort()).toEqual(['containerPort', 'exposedPort', 'protocols']);
  });

  it('accepts a full and a minimal template', () => {
    expect(valid(template)).toBe(true);
    expect(valid(minimalTemplate)).toBe(true);
  });

  it('requires name and the image parts', () => {
    for (const f of ['name', 'imageName', 'imageNamespace', 'imageTag', 'imageRegistryId']) {
      const body: Record<string, unknown> = { ...minimalTemplate };
      delete body[f];
      expect(valid(body), f).toBe(false);
    }
  });

  it('bounds name to 1..50 characters', () => {
    expect(valid({ ...minimalTemplate, name: 'a'.repeat(50) })).toBe(true);
    expect(valid({ ...minimalTemplate, name: 'a'.repeat(51) })).toBe(false);
    expect(valid({ ...minimalTemplate, name: '' })).toBe(false);
  });

  it('checks imageName and imageNamespace segments', () => {
    for (const field of ['imageName', 'imageNamespace']) {
      const ok = (v: string) => valid({ ...minimalTemplate, [field]: v });
      expect(ok('library/nginx')).toBe(true);
      expect(ok('my-org.io/team__app')).toBe(true);
      expect(ok('a..b')).toBe(true);
      expect(ok('a...b')).toBe(false);
      expect(ok('-nginx')).toBe(false);
      expect(ok('nginx-')).toBe(false);
      expect(ok('ng inx')).toBe(false);
      expect(ok('')).toBe(false);
    }
  });

  it('checks imageTag segments (no slash)', () => {
    const ok = (v: string) => valid({ ...minimalTemplate, imageTag: v });
    expect(ok('1.25-alpine')).toBe(true);
    expect(ok('v1__2')).toBe(true);
    expect(ok('a/b')).toBe(false);
    expect(ok('.1')).toBe(false);
    expect(ok('')).toBe(false);
  });

  it('checks imageDigest', () => {
    const ok = (v: unknown) => valid({ ...minimalTemplate, imageDigest: v });
    expect(ok(`sha256:${'a'.repeat(64)}`)).toBe(true);
    expect(ok(`sha256:${'0123456789abcdefghijklmnopqrstuvwxyz'.repeat(2).slice(0, 64)}`)).toBe(true);
    expect(ok(null)).toBe(true);
    expect(ok(`sha256:${'a'.repeat(63)}`)).toBe(false);
    expect(ok(`sha256:${'a'.repeat(65)}`)).toBe(false);
    expect(ok(`sha256:${'A'.repeat(64)}`)).toBe(false);
    expect(ok(`sha512:${'a'.repeat(64)}`)).toBe(false);
    expect(ok(`x${digest}`)).toBe(false);
    expect(ok('')).toBe(false);
  });

  it('allows only the two pull policies', () => {
    expect(valid({ ...minimalTemplate, imagePullPolicy: 'always' })).toBe(true);
    expect(valid({ ...minimalTemplate, imagePullPolicy: 'ifNotPresent' })).toBe(true);
    expect(valid({ ...minimalTemplate, imagePullPolicy: 'never' })).toBe(false);
  });

  it('bounds probe numbers and ports', () => {
    const probe = (p: unknown) => valid({ ...minimalTemplate, probes: { liveness: p } });
    expect(probe({ periodSeconds: 3600, failureThreshold: 1000 })).toBe(true);
    expect(probe({ periodSeconds: 0 })).toBe(false);
    expect(probe({ timeoutSeconds: 3601 })).toBe(false);
    expect(probe({ successThreshold: 1001 })).toBe(false);
    expect(probe({ tcpSocket: { request: { portNumber: 65535 } } })).toBe(true);
    expect(probe({ tcpSocket: { request: { portNumber: 0 } } })).toBe(false);
    expect(probe({ httpGet: { request: { portNumber: 65536 } } })).toBe(false);
    expect(probe({ httpGet: { response: { expectedStatusCode: 'teapot' } } })).toBe(false);
  });

  it('checks endpoints', () => {
    const ep = (e: unknown) => valid({ ...minimalTemplate, endpoints: [e] });
    const mapping = { containerPort: 8080, exposedPort: 80, protocols: [...PORT_PROTOCOLS] };
    expect(ep({ displayName: 'a'.repeat(50), cdn: { portMappings: [mapping] } })).toBe(true);
    expect(ep({ displayName: 'a'.repeat(51) })).toBe(false);
    expect(ep({ displayName: '' })).toBe(false);
    expect(ep({ cdn: {} })).toBe(false);
    expect(ep({ displayName: 'x', cdn: { portMappings: [] } })).toBe(false);
    expect(ep({ displayName: 'x', cdn: { portMappings: [mapping, mapping] } })).toBe(false);
    expect(ep({ displayName: 'x', cdn: { portMappings: [{ ...mapping, protocols: ['http'] }] } })).toBe(false);
    expect(ep({ displayName: 'x', cdn: { portMappings: [{ ...mapping, containerPort: 0 }] } })).toBe(false);
    expect(ep({ displayName: 'x', cdn: { pullZoneId: 5 } })).toBe(true);
    expect(ep({ displayName: 'x', anycast: { type: 'iPv4', portMappings: [mapping, mapping] } })).toBe(true);
    expect(ep({ displayName: 'x', anycast: { type: 'iPv6', portMappings: [mapping] } })).toBe(false);
    expect(ep({ displayName: 'x', anycast: { type: 'iPv4', portMappings: [] } })).toBe(false);
  });

  it('checks volume mounts', () => {
    const vm = (mountPath: string) => valid({ ...minimalTemplate, volumeMounts: [{ name: 'data', mountPath }] });
    expect(vm('/data')).toBe(true);
    expect(vm('/var/lib/data/')).toBe(true);
    expect(vm('data')).toBe(false);
    expect(vm('/a//b')).toBe(false);
    expect(vm('/a/../b')).toBe(false);
    expect(vm('/a b')).toBe(false);
    // The platform's original rule backtracks exponentially on this input; ours must not.
    const start = performance.now();
    expect(vm(`/${'a'.repeat(5000)}!`)).toBe(false);
    expect(performance.now() - start).toBeLessThan(500);
  });

  it('is closed to unknown fields', () => {
    expect(valid({ ...minimalTemplate, bogus: true })).toBe(false);
    expect(valid({ ...minimalTemplate, id: 'x' })).toBe(false);
  });
});

describe('ApplicationReplaceRequest', () => {
  const valid = check(ApplicationReplaceRequest);

  it('has every field of spec 2.2.1', () => {
    expect(props(ApplicationReplaceRequest).sort()).toEqual(
      ['name', 'runtimeType', 'autoScaling', 'regionSettings', 'terminationGracePeriodSeconds', 'repositorySettings', 'containerTemplates', 'volumes'].sort(),
    );
    expect(required(ApplicationReplaceRequest).sort()).toEqual(['autoScaling', 'containerTemplates', 'name', 'regionSettings', 'runtimeType']);
    expect(props(prop(ApplicationReplaceRequest, 'autoScaling')).sort()).toEqual(['max', 'min']);
    expect(props(prop(ApplicationReplaceRequest, 'regionSettings')).sort()).toEqual([
      'allowedRegionIds',
      'maxAllowedRegions',
      'nodeSelectors',
      'requiredRegionIds',
    ]);
    expect(props(prop(ApplicationReplaceRequest, 'repositorySettings')).sort()).toEqual(['owner', 'repositoryName', 'templateRepository']);
    expect(props(prop(ApplicationReplaceRequest, 'volumes', '[]')).sort()).toEqual(['name', 'size']);
    expect(props(prop(ApplicationReplaceRequest, 'containerTemplates', '[]')).sort()).toEqual([...props(ContainerTemplateRequest), 'id'].sort());
  });

  it('accepts a complete configuration', () => {
    expect(valid(app)).toBe(true);
    expect(valid({ ...app, containerTemplates: [minimalTemplate] })).toBe(true);
  });

  it('bounds name to 1..100 letters, digits, hyphens and whitespace', () => {
    expect(valid({ ...app, name: 'a'.repeat(100) })).toBe(true);
    expect(valid({ ...app, name: 'a'.repeat(101) })).toBe(false);
    expect(valid({ ...app, name: '' })).toBe(false);
    expect(valid({ ...app, name: 'my app-1' })).toBe(true);
    expect(valid({ ...app, name: 'my_app' })).toBe(false);
    expect(valid({ ...app, name: 'app!' })).toBe(false);
  });

  it('allows only shared and reserved runtimes', () => {
    expect(valid({ ...app, runtimeType: 'reserved' })).toBe(true);
    expect(valid({ ...app, runtimeType: 'dedicated' })).toBe(false);
  });

  it('bounds terminationGracePeriodSeconds to 1..300', () => {
    expect(valid({ ...app, terminationGracePeriodSeconds: 1 })).toBe(true);
    expect(valid({ ...app, terminationGracePeriodSeconds: 300 })).toBe(true);
    expect(valid({ ...app, terminationGracePeriodSeconds: 0 })).toBe(false);
    expect(valid({ ...app, terminationGracePeriodSeconds: 301 })).toBe(false);
  });

  it('needs at least one valid container template', () => {
    expect(valid({ ...app, containerTemplates: [] })).toBe(false);
    const { containerTemplates: _omit, ...withoutTemplates } = app;
    expect(valid(withoutTemplates)).toBe(false);
    expect(valid({ ...app, containerTemplates: [{ ...minimalTemplate, name: 'a'.repeat(51) }] })).toBe(false);
  });

  it('checks autoScaling and volumes', () => {
    expect(valid({ ...app, autoScaling: { min: 0, max: 1 } })).toBe(false);
    expect(valid({ ...app, autoScaling: { min: 1 } })).toBe(false);
    expect(valid({ ...app, volumes: [{ name: 'v', size: 0 }] })).toBe(false);
    expect(valid({ ...app, volumes: [{ name: 'v', size: 100 }] })).toBe(true);
  });
});

describe('ApplicationCreateRequest', () => {
  it('follows the same rules, with container templates optional', () => {
    const valid = check(ApplicationCreateRequest);
    const { containerTemplates: _omit, ...withoutTemplates } = app;
    expect(valid(app)).toBe(true);
    expect(valid(withoutTemplates)).toBe(true);
    expect(valid({ ...app, containerTemplates: [] })).toBe(false);
    expect(valid({ ...app, name: 'my_app' })).toBe(false);
    expect(valid({ ...app, terminationGracePeriodSeconds: 301 })).toBe(false);
    expect(required(ApplicationCreateRequest).sort()).toEqual(['autoScaling', 'name', 'regionSettings', 'runtimeType']);
  });
});

describe('EndpointUpdateRequest / responses', () => {
  it('takes displayName (1..50) with cdn or anycast', () => {
    const valid = check(EndpointUpdateRequest);
    expect(props(EndpointUpdateRequest).sort()).toEqual(['anycast', 'cdn', 'displayName']);
    expect(
      valid({
        displayName: 'public',
        cdn: { isSslEnabled: true, pullZoneId: 9007199254740991, portMappings: [{ containerPort: 80, exposedPort: 80, protocols: ['tcp'] }] },
      }),
    ).toBe(true);
    expect(valid({ displayName: 'a'.repeat(51) })).toBe(false);
    expect(valid({ cdn: {} })).toBe(false);
  });

  it('answers with an id', () => {
    expect(props(EndpointUpdateResponse)).toEqual(['id']);
    expect(props(IdResponse)).toEqual(['id']);
    expect(check(IdResponse)({ id: 'app-1' })).toBe(true);
  });
});

describe('ContainerTemplate (response)', () => {
  it('has the request fields plus id and packageId, all required', () => {
    expect(props(ContainerTemplate).sort()).toEqual([...props(ContainerTemplateRequest), 'id', 'packageId'].sort());
    expect(required(ContainerTemplate).sort()).toEqual(props(ContainerTemplate).sort());
  });

  it('describes endpoints as spec 2.2 returns them', () => {
    expect(props(ContainerEndpointResponse).sort()).toEqual(
      [
        'id',
        'displayName',
        'publicHost',
        'type',
        'isSslEnabled',
        'pullZoneId',
        'portMappings',
        'stickySessions',
        'internalIpAddresses',
        'publicIpAddresses',
      ].sort(),
    );
    expect(props(prop(ContainerEndpointResponse, 'stickySessions')).sort()).toEqual(['cookieName', 'enabled', 'sessionHeaders']);
    expect(props(prop(ContainerEndpointResponse, 'internalIpAddresses', '[]')).sort()).toEqual(['address', 'region']);
    expect(props(prop(ContainerEndpointResponse, 'publicIpAddresses', '[]')).sort()).toEqual(['address', 'region']);
    expect(check(ContainerTemplate)(templateResponse)).toBe(true);
  });
});

describe('Application (response)', () => {
  it('carries every property of the reference model', () => {
    for (const f of [
      'id',
      'name',
      'displayEndpoint',
      'status',
      'runtimeType',
      'regionSettings',
      'containerTemplates',
      'containerInstances',
      'volumes',
      'autoScaling',
      'networkSettings',
      'repositorySettings',
    ]) {
      expect(props(Application)).toContain(f);
    }
    const valid = check(Application);
    expect(valid(application)).toBe(true);
    expect(valid({ ...application, status: 'running' })).toBe(false);
  });

  it('serializes through Fastify unchanged, dropping undeclared fields', async () => {
    const server = Fastify();
    server.get('/app', { schema: { response: { 200: Application } } }, async () => ({ ...application, secret: 'x' }));
    server.get('/tpl', { schema: { response: { 201: ContainerTemplate } } }, async (_req, reply) => reply.code(201).send(templateResponse));
    const res = await server.inject({ method: 'GET', url: '/app' });
    const tpl = await server.inject({ method: 'GET', url: '/tpl' });
    await server.close();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(application);
    expect(tpl.json()).toEqual(templateResponse);
  });
});

// Assembled from pieces so the words themselves never appear in the project's sources.
const VENDOR_WORDS = new RegExp(['bun' + 'ny', 'ma' + 'gic'].join('|'), 'i');

describe('wording', () => {
  it('carries no vendor words', () => {
    for (const s of [
      ContainerTemplateRequest,
      ContainerTemplate,
      ApplicationReplaceRequest,
      ApplicationCreateRequest,
      Application,
      EndpointUpdateRequest,
      EndpointUpdateResponse,
      IdResponse,
    ]) {
      expect(JSON.stringify(s)).not.toMatch(VENDOR_WORDS);
    }
  });
});
