/** Shared bodies and checks for the container-application HTTP tests. */
import { expect } from 'vitest';
import type { TSchema } from 'typebox';
import { CONTAINER_ID_PATTERN } from '../../../src/domain/containers/ids.js';
import { ErrorBody } from '../../../src/schemas/error.js';
import type { TestContext, TestResponse } from '../../helpers/app.js';
import { schemaAjv } from '../../helpers/schema-ajv.js';

const ajv = schemaAjv();
ajv.addSchema(ErrorBody);

/** Asserts that `value` satisfies the response schema (the same one the route declares). */
export function expectSchema(schema: TSchema, value: unknown): void {
  const id = (schema as { $id?: string }).$id;
  const validate = (id !== undefined ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema);
  const ok = validate(value);
  expect(ok, JSON.stringify(validate.errors)).toBe(true);
}

export const ID = CONTAINER_ID_PATTERN;
export const digest = `sha256:${'ab12'.repeat(16)}`;

export const minimalTemplate = () => ({
  name: 'web',
  imageName: 'nginx',
  imageNamespace: 'library',
  imageTag: '1.25-alpine',
  imageRegistryId: '1',
});

export const cdnEndpoint = (displayName = 'public', cdn: Record<string, unknown> = {}) => ({
  displayName,
  cdn: { isSslEnabled: true, portMappings: [{ containerPort: 8080, exposedPort: 80, protocols: ['tcp'] }], ...cdn },
});

export const anycastEndpoint = (displayName = 'dns') => ({
  displayName,
  anycast: { type: 'iPv4', portMappings: [{ containerPort: 53, protocols: ['udp', 'tcp'] }] },
});

/** A template using every request field. */
export const fullTemplate = () => ({
  ...minimalTemplate(),
  name: 'api',
  image: 'registry.example.net/team/api:2.1',
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
    readiness: { periodSeconds: 15, httpGet: { request: { path: '/ready', portNumber: 8080 }, response: { expectedStatusCode: 'ok' } } },
    liveness: { grpc: { request: { portNumber: 9000, serviceName: 'health' } } },
  },
  environmentVariables: [{ name: 'MODE', value: 'prod' }, { name: 'EMPTY' }],
  endpoints: [cdnEndpoint('Public API', { stickySessions: { sessionHeaders: ['X-Session'], cookieName: 'sid' } }), anycastEndpoint('dns')],
  volumeMounts: [{ name: 'data', mountPath: '/var/lib/data' }],
});

export const appBody = (over: Record<string, unknown> = {}) => ({
  name: 'my app-1',
  runtimeType: 'shared',
  autoScaling: { min: 1, max: 3 },
  regionSettings: { allowedRegionIds: ['DE', 'NY'], requiredRegionIds: ['DE'] },
  ...over,
});

/** Creates an application and returns its id. */
export async function createApp(t: TestContext, over: Record<string, unknown> = {}, key?: string): Promise<string> {
  const res = await t.post('/mc/apps', appBody(over), key);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/** Creates an application with one template (from `template`) and returns both ids and the template. */
export async function createAppWithTemplate(t: TestContext, template: Record<string, unknown> = fullTemplate()) {
  const appId = await createApp(t);
  const res = await t.post(`/mc/apps/${appId}/containers`, template);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { appId, template: res.body };
}

/** Stores a pull zone document for `accountId`, as the pull zone service would. */
export async function seedPullZone(t: TestContext, accountId: number, id: number): Promise<void> {
  await t.store.docs.insert('pullZone', { id: String(id), accountId, doc: { Id: id, Name: `zone-${id}` } });
}

/** The field names of a 400 (checked to be a part 7 body). */
export function fields400(res: TestResponse): string[] {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expectSchema(ErrorBody, res.body);
  return (res.body.errors as { field: string }[]).map((e) => e.field);
}
