/**
 * Image registries of the container API: the account's registries (credentials checked with the
 * registry and sealed at rest), and the questions asked of a registry — images, tags, digests,
 * image configuration and suggestions — answered by real registries this file starts (Debian's
 * docker-registry: one open, one behind HTTP Basic, one behind a token service).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ContainerConfigSuggestions,
  ContainerImages,
  ContainerImageTags,
  ContainerRegistry,
  ImageConfig,
  ImageTagInfo,
  ListContainerRegistriesResponse,
  SaveContainerRegistryResult,
} from '../../../src/schemas/container-registries.js';
import { ErrorBody } from '../../../src/schemas/error.js';
import { createTestApp, expectErrorBody, type TestContext, type TestResponse } from '../../helpers/app.js';
import { freePort, startRegistry, type PushedImage, type TestRegistry } from '../../helpers/oci-registry.js';
import { createApp, expectSchema, fields400, minimalTemplate } from './fixtures.js';

const ALICE = { userName: 'alice', password: 'correct horse battery staple' };
const BOB = { userName: 'bob', password: 'token-service-password-42' };

let open: TestRegistry;
let basic: TestRegistry;
let token: TestRegistry;
const pushed: Record<string, PushedImage> = {};

beforeAll(async () => {
  [open, basic, token] = await Promise.all([
    startRegistry(),
    startRegistry({ auth: 'basic', users: { [ALICE.userName]: ALICE.password } }),
    startRegistry({ auth: 'token', users: { [BOB.userName]: BOB.password }, anonymousPull: true }),
  ]);
  pushed['hello:1.0'] = await open.push('library/hello', '1.0', {
    exposedPorts: ['8080/tcp', '53/udp', '9000'],
    volumes: ['/var/lib/db', '/data'],
    env: ['PATH=/usr/bin', 'MODE=production', 'WORKERS=4', 'EMPTY='],
    labels: {
      'org.opencontainers.image.title': 'Hello service',
      'org.opencontainers.image.description': 'Says hello.',
      'org.opencontainers.image.documentation': 'https://docs.example.com/hello',
    },
  });
  pushed['hello:2.0'] = await open.push('library/hello', '2.0', { manifestType: 'docker', exposedPorts: ['80/tcp'] });
  pushed['multi:1.0'] = await open.push('library/multi', '1.0', { index: true, exposedPorts: ['3000/tcp'], volumes: ['/srv'] });
  pushed['api:latest'] = await open.push('team/api', 'latest');
  await open.push('solo', '1');
  pushed['private'] = await basic.push('private/app', '1.0', { exposedPorts: ['8443/tcp'] });
  pushed['secure'] = await token.push('secure/app', '1.0', { exposedPorts: ['7000/tcp'] });
}, 300_000);
afterAll(async () => {
  await Promise.all([open?.close(), basic?.close(), token?.close()]);
});

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

async function addRegistry(body: Record<string, unknown>, key?: string): Promise<number> {
  const res = await t.post('/mc/registries', body, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectSchema(SaveContainerRegistryResult, res.body);
  expect(res.body).toEqual({ id: expect.any(Number), error: null, status: 'saved' });
  return res.body.id as number;
}

const openRegistry = (over: Record<string, unknown> = {}) => addRegistry({ displayName: 'local', hostName: open.url, ...over });

/** A 422 from a registry question: the part 7 body, naming `field`. */
function expect422(res: TestResponse, field: string, message: RegExp): void {
  expectErrorBody(res, 422);
  expectSchema(ErrorBody, res.body);
  expect(res.body.errors).toEqual([{ field, message: expect.stringMatching(message) }]);
}

describe('registries of the account', () => {
  it('adds one, reads it back alone and in the list, at /mc and at the root', async () => {
    const id = await openRegistry({ type: 'vendorRegistry' });
    const res = await t.get(`/mc/registries/${id}`);
    expect(res.status).toBe(200);
    expectSchema(ContainerRegistry, res.body);
    expect(res.body).toEqual({
      id,
      accountId: String(t.accountId),
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      namespaceId: '',
      displayName: 'local',
      hostName: open.url,
      userName: null,
      firstPasswordSymbols: null,
      lastPasswordSymbols: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      isPublic: true,
      isPlatformManaged: false,
      lastUpdatedAt: null,
    });
    const list = await t.get('/mc/registries');
    expectSchema(ListContainerRegistriesResponse, list.body);
    expect(list.body).toEqual({ items: [res.body], meta: { totalItems: 1 }, cursor: null });
    // The platform's command-line client lists registries at the root.
    expect((await t.get('/registries')).body).toEqual(list.body);
    expect((await t.get(`/registries/${id}`)).body).toEqual(res.body);
  });

  it('takes the public registries by type, with their own hosts', async () => {
    const hub = await addRegistry({ displayName: 'hub' });
    const github = await addRegistry({ displayName: 'github', type: 'gitHub' });
    expect((await t.get(`/mc/registries/${hub}`)).body.hostName).toBe('docker.io');
    expect((await t.get(`/mc/registries/${github}`)).body.hostName).toBe('ghcr.io');
  });

  it('checks credentials with the registry before saving them, behind HTTP Basic and behind a token service', async () => {
    const id = await addRegistry({ displayName: 'basic', type: 'vendorRegistry', hostName: basic.url, passwordCredentials: ALICE });
    const view = (await t.get(`/mc/registries/${id}`)).body;
    expect(view).toMatchObject({ userName: 'alice', namespaceId: 'alice', isPublic: false, firstPasswordSymbols: 'cor', lastPasswordSymbols: 'ple' });
    await addRegistry({ displayName: 'token', hostName: token.url, passwordCredentials: BOB });

    const wrong = await t.post('/mc/registries', { displayName: 'x', hostName: basic.url, passwordCredentials: { userName: 'alice', password: 'wrong' } });
    expect(fields400(wrong)).toEqual(['passwordCredentials']);
    expect(wrong.body.detail).toBe('The registry refused these credentials.');
    const wrongToken = await t.post('/mc/registries', { displayName: 'x', hostName: token.url, passwordCredentials: { userName: 'bob', password: 'nope' } });
    expect(fields400(wrongToken)).toEqual(['passwordCredentials']);
    expect((await t.get('/mc/registries')).body.meta.totalItems).toBe(2);
  });

  it('refuses credentials it cannot check: no registry answers at the address', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const res = await t.post('/mc/registries', { displayName: 'gone', hostName: closed, passwordCredentials: ALICE });
    expect(fields400(res)).toEqual(['passwordCredentials']);
    expect(res.body.detail).toMatch(/could not be checked: The registry at 127\.0\.0\.1:\d+ could not be reached \(ECONNREFUSED\)/);
    // Without credentials there is nothing to check: the registry is kept, and questions say it is unreachable.
    const id = await addRegistry({ displayName: 'gone', hostName: closed });
    expect422(
      await t.post('/mc/registries/tags', { registryId: String(id), imageNamespace: 'library', imageName: 'hello' }),
      'registryId',
      /could not be reached/,
    );
  });

  it.each([
    [{}, ['displayName']],
    [{ displayName: '' }, ['displayName']],
    [{ displayName: 'x'.repeat(51) }, ['displayName']],
    [{ displayName: 'x', type: 'quay' }, ['type']],
    [{ displayName: 'x', hostName: 'not a host' }, ['hostName']],
    [{ displayName: 'x', hostName: 'ftp://example.com' }, ['hostName']],
    [{ displayName: 'x', hostName: 'example.com:99999' }, ['hostName']],
    [{ displayName: 'x', hostName: 'http://169.254.169.254' }, ['hostName']],
    [{ displayName: 'x', type: 'vendorRegistry' }, ['hostName']],
    [{ displayName: 'x', passwordCredentials: { userName: 'a' } }, ['passwordCredentials.password']],
    [{ displayName: 'x', passwordCredentials: { userName: '', password: 'p' } }, ['passwordCredentials.userName']],
  ])('refuses %j with a 400 naming %j, and keeps nothing', async (body, fields) => {
    expect(fields400(await t.post('/mc/registries', body))).toEqual(fields);
    expect((await t.get('/mc/registries')).body.items).toEqual([]);
  });

  it('updates: new settings, kept credentials, new credentials checked again', async () => {
    const id = await addRegistry({ displayName: 'basic', hostName: basic.url, passwordCredentials: ALICE });
    t.clock.advance(60_000);
    const res = await t.put(`/mc/registries/${id}`, { displayName: 'renamed', hostName: basic.url });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id, error: null, status: 'saved' });
    expect((await t.get(`/mc/registries/${id}`)).body).toMatchObject({
      displayName: 'renamed',
      userName: 'alice',
      firstPasswordSymbols: 'cor',
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUpdatedAt: '2026-01-01T00:01:00.000Z',
    });
    // The kept credentials still sign in: they were kept sealed, not dropped.
    const tags = await t.post('/mc/registries/tags', { registryId: String(id), imageNamespace: 'private', imageName: 'app' });
    expect(tags.body).toEqual([{ name: '1.0' }]);

    const wrong = await t.put(`/mc/registries/${id}`, { displayName: 'bad', passwordCredentials: { userName: 'alice', password: 'nope' } });
    expect(fields400(wrong)).toEqual(['passwordCredentials']);
    expect((await t.get(`/mc/registries/${id}`)).body.displayName).toBe('renamed');
    // Moving the kept credentials to another host checks them there.
    expect(fields400(await t.put(`/mc/registries/${id}`, { displayName: 'moved', hostName: token.url }))).toEqual(['passwordCredentials']);
    expect(fields400(await t.put(`/mc/registries/${id}`, { displayName: '' }))).toEqual(['displayName']);
  });

  it('deletes one no container pulls from; one in use is refused with 409 naming the applications', async () => {
    const id = await openRegistry();
    const appId = await createApp(t, { containerTemplates: [{ ...minimalTemplate(), imageRegistryId: String(id) }] });
    const refused = await t.del(`/mc/registries/${id}`);
    expectErrorBody(refused, 409);
    expect(refused.body.detail).toContain(appId);
    expect((await t.get(`/mc/registries/${id}`)).status).toBe(200);

    expect((await t.del(`/mc/apps/${appId}`)).status).toBe(200);
    const res = await t.del(`/mc/registries/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'removed', applications: null });
    expectErrorBody(await t.get(`/mc/registries/${id}`), 404);
    expectErrorBody(await t.del(`/mc/registries/${id}`), 404);
  });

  it("answers 404 for an unknown id and for another account's, and 400 for an id that is not one", async () => {
    const id = await openRegistry();
    const other = await t.newAccount();
    for (const key of [undefined, other.key]) {
      const unknown = key === undefined ? 987654 : id;
      expectErrorBody(await t.get(`/mc/registries/${unknown}`, key), 404, `/mc/registries/${unknown}`);
      expectErrorBody(await t.put(`/mc/registries/${unknown}`, { displayName: 'mine' }, key), 404);
      expectErrorBody(await t.del(`/mc/registries/${unknown}`, undefined, key), 404);
      expectErrorBody(await t.post('/mc/registries/tags', { registryId: String(unknown), imageNamespace: 'library', imageName: 'hello' }, key), 404);
    }
    expect((await t.get('/mc/registries', other.key)).body.items).toEqual([]);
    expect((await t.get(`/mc/registries/${id}`)).body.displayName).toBe('local');
    expect(fields400(await t.get('/mc/registries/abc'))).toEqual(['registryId']);
  });

  it('lets a read-only key read registries and ask registries, and refuses it every change', async () => {
    const id = await openRegistry();
    const readOnly = (await t.post('/apikey', { Roles: ['ReadOnly'] })).body.Key as string;
    expect((await t.get('/mc/registries', readOnly)).status).toBe(200);
    expect((await t.get(`/mc/registries/${id}`, readOnly)).status).toBe(200);
    expect((await t.post('/mc/registries/tags', { registryId: String(id), imageNamespace: 'library', imageName: 'hello' }, readOnly)).status).toBe(200);
    for (const res of [
      await t.post('/mc/registries', { displayName: 'x' }, readOnly),
      await t.put(`/mc/registries/${id}`, { displayName: 'x' }, readOnly),
      await t.del(`/mc/registries/${id}`, undefined, readOnly),
    ]) {
      expectErrorBody(res, 403);
      expect(res.body.detail).toMatch(/read-only/);
    }
    expect((await t.get(`/mc/registries/${id}`)).body.displayName).toBe('local');
  });
});

describe('asking a registry', () => {
  const hello = (registryId: number | string, over: Record<string, unknown> = {}) => ({
    registryId: String(registryId),
    imageNamespace: 'library',
    imageName: 'hello',
    ...over,
  });

  it('lists the tags of an image', async () => {
    const id = await openRegistry();
    const res = await t.post('/mc/registries/tags', hello(id));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSchema(ContainerImageTags, res.body);
    // In the registry's own order.
    expect(res.body.map((tag: { name: string }) => tag.name).sort()).toEqual(['1.0', '2.0']);
    expect((await t.post('/registries/tags', hello(id))).body).toEqual(res.body);
  });

  it('tells the digest a tag points at, for OCI and Docker manifests and for an image index', async () => {
    const id = await openRegistry();
    for (const [tag, name, image] of [
      ['1.0', 'hello', pushed['hello:1.0']!],
      ['2.0', 'hello', pushed['hello:2.0']!],
      ['1.0', 'multi', pushed['multi:1.0']!],
    ] as const) {
      const res = await t.post('/mc/registries/digest', hello(id, { imageName: name, tag }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectSchema(ImageTagInfo, res.body);
      expect(res.body).toEqual({ imageNamespace: 'library', image: name, tag, digest: image.digest });
    }
    // A digest told is one a container can be pinned to.
    const appId = await createApp(t, { containerTemplates: [{ ...minimalTemplate(), imageRegistryId: String(id), imageDigest: pushed['hello:1.0']!.digest }] });
    expect((await t.get(`/mc/apps/${appId}`)).body.containerTemplates[0].imageDigest).toBe(pushed['hello:1.0']!.digest);
  });

  it("reads an image's configuration: exposed ports become endpoints, declared volumes become volumes", async () => {
    const id = await openRegistry();
    const res = await t.post('/mc/registries/image-config', hello(id, { tag: '1.0' }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSchema(ImageConfig, res.body);
    expect(res.body).toEqual({
      endpointSuggestions: [
        { displayName: 'udp-53', anycast: { type: 'iPv4', portMappings: [{ containerPort: 53, protocols: ['udp'] }] } },
        { displayName: 'tcp-8080', cdn: { isSslEnabled: true, portMappings: [{ containerPort: 8080, protocols: ['tcp'] }] } },
        { displayName: 'tcp-9000', cdn: { isSslEnabled: true, portMappings: [{ containerPort: 9000, protocols: ['tcp'] }] } },
      ],
      volumeSuggestions: [
        { containerPath: '/data', suggestedVolumeName: 'data' },
        { containerPath: '/var/lib/db', suggestedVolumeName: 'var-lib-db' },
      ],
    });
    // Through an image index, to its Linux image (past the attestation entry).
    const multi = await t.post('/mc/registries/image-config', hello(id, { imageName: 'multi', tag: '1.0' }));
    expect(multi.body).toEqual({
      endpointSuggestions: [{ displayName: 'tcp-3000', cdn: { isSslEnabled: true, portMappings: [{ containerPort: 3000, protocols: ['tcp'] }] } }],
      volumeSuggestions: [{ containerPath: '/srv', suggestedVolumeName: 'srv' }],
    });
    // The suggestions are bodies the API takes: an endpoint suggested can be added as it is.
    const appId = await createApp(t, {
      containerTemplates: [{ ...minimalTemplate(), imageRegistryId: String(id), endpoints: res.body.endpointSuggestions }],
      volumes: res.body.volumeSuggestions.map((v: { suggestedVolumeName: string }) => ({ name: v.suggestedVolumeName, size: 1 })),
    });
    expect((await t.get(`/mc/apps/${appId}/endpoints`)).body.meta.totalItems).toBe(3);
  });

  it('suggests a configuration: endpoints, volumes, the environment the image sets, and its labels', async () => {
    const id = await openRegistry();
    const res = await t.post('/mc/registries/config-suggestions', hello(id, { tag: '1.0' }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSchema(ContainerConfigSuggestions, res.body);
    expect(res.body).toMatchObject({
      environmentVariablesSuggestions: [
        { name: 'MODE', defaultValue: 'production', description: null, required: false },
        { name: 'WORKERS', defaultValue: '4', description: null, required: false },
        { name: 'EMPTY', defaultValue: '', description: null, required: false },
      ],
      appName: 'Hello service',
      description: 'Says hello.',
      instructions: 'The image is documented at https://docs.example.com/hello.',
      registryUrl: open.url,
    });
    expect(res.body.endpointSuggestions).toHaveLength(3);
    const plain = await t.post('/mc/registries/config-suggestions', hello(id, { tag: '2.0' }));
    expect(plain.body).toMatchObject({ appName: 'hello', description: null, instructions: null, environmentVariablesSuggestions: [] });
  });

  it('lists and searches the images of a registry, from its catalog', async () => {
    const id = await openRegistry();
    const all = await t.post('/mc/registries/images', { registryId: String(id) });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expectSchema(ContainerImages, all.body);
    // `solo` sits at the registry's top level: it has no namespace to be addressed by.
    expect(all.body).toEqual([
      { namespace: 'library', id: 'hello' },
      { namespace: 'library', id: 'multi' },
      { namespace: 'team', id: 'api' },
    ]);
    const search = (body: Record<string, unknown>) => t.post('/mc/registries/public-images/search', { registryId: String(id), ...body });
    expect((await search({ prefix: 'HEL' })).body).toEqual([{ namespace: 'library', id: 'hello' }]);
    expect((await search({ prefix: 'team/' })).body).toEqual([{ namespace: 'team', id: 'api' }]);
    expect((await search({ prefix: 'library/', size: 1 })).body).toEqual([{ namespace: 'library', id: 'hello' }]);
    expect((await search({ prefix: 'library/', size: 1, page: 2 })).body).toEqual([{ namespace: 'library', id: 'multi' }]);
    expect((await search({ prefix: 'nothing' })).body).toEqual([]);
  });

  it('signs in with the stored credentials: HTTP Basic, and a token from the registry’s token service', async () => {
    const withBasic = await addRegistry({ displayName: 'basic', hostName: basic.url, passwordCredentials: ALICE });
    expect((await t.post('/mc/registries/tags', { registryId: String(withBasic), imageNamespace: 'private', imageName: 'app' })).body).toEqual([
      { name: '1.0' },
    ]);
    const digest = await t.post('/mc/registries/digest', { registryId: String(withBasic), imageNamespace: 'private', imageName: 'app', tag: '1.0' });
    expect(digest.body.digest).toBe(pushed['private']!.digest);

    const withToken = await addRegistry({ displayName: 'token', hostName: token.url, passwordCredentials: BOB });
    const config = await t.post('/mc/registries/image-config', { registryId: String(withToken), imageNamespace: 'secure', imageName: 'app', tag: '1.0' });
    expect(config.status, JSON.stringify(config.body)).toBe(200);
    expect(config.body.endpointSuggestions.map((e: { displayName: string }) => e.displayName)).toEqual(['tcp-7000']);
    // The registry asked first (401 naming the token service), then served the request with the token.
    expect(token.requests().filter((r) => r.startsWith('GET /v2/secure/app/manifests/1.0')).length).toBeGreaterThanOrEqual(2);
  });

  it('reads a token registry anonymously when it gives pull tokens to anyone; a Basic one without credentials refuses', async () => {
    const anonymous = await addRegistry({ displayName: 'token', hostName: token.url });
    expect((await t.post('/mc/registries/tags', { registryId: String(anonymous), imageNamespace: 'secure', imageName: 'app' })).body).toEqual([
      { name: '1.0' },
    ]);
    const noCredentials = await addRegistry({ displayName: 'basic', hostName: basic.url });
    expect422(
      await t.post('/mc/registries/tags', { registryId: String(noCredentials), imageNamespace: 'private', imageName: 'app' }),
      'registryId',
      /needs credentials/,
    );
  });

  it('says what the registry lacks: an image (naming imageName) or a tag (naming tag), never inventing an answer', async () => {
    const id = await openRegistry();
    expect422(await t.post('/mc/registries/tags', hello(id, { imageName: 'missing' })), 'imageName', /^The registry has no image library\/missing\.$/);
    expect422(await t.post('/mc/registries/digest', hello(id, { tag: '9.9' })), 'tag', /^The registry has no tag 9\.9 of library\/hello\.$/);
    expect422(await t.post('/mc/registries/image-config', hello(id, { tag: '9.9' })), 'tag', /no tag 9\.9/);
    expect422(await t.post('/mc/registries/config-suggestions', hello(id, { imageName: 'missing', tag: '1' })), 'imageName', /no image/);
  });

  it.each([
    ['/mc/registries/tags', { registryId: '1', imageNamespace: 'library' }, ['imageName']],
    ['/mc/registries/tags', { imageNamespace: 'library', imageName: 'hello' }, ['registryId']],
    ['/mc/registries/tags', { registryId: 'somewhere', imageNamespace: 'library', imageName: 'hello' }, ['registryId']],
    ['/mc/registries/digest', { registryId: '1', imageNamespace: 'library', imageName: 'hello' }, ['tag']],
    ['/mc/registries/digest', { registryId: '1', imageNamespace: 'library', imageName: 'hello', tag: 'a/b' }, ['tag']],
    ['/mc/registries/image-config', { registryId: '1', imageNamespace: '../x', imageName: 'hello', tag: '1' }, ['imageNamespace']],
    ['/mc/registries/public-images/search', { registryId: '1', prefix: 'a', size: 0 }, ['size']],
    ['/mc/registries/public-images/search', { registryId: '1', prefix: '' }, ['prefix']],
    ['/mc/registries/images', {}, ['registryId']],
  ])('%s refuses %j with a 400 naming %j', async (url, body, fields) => {
    expect(fields400(await t.post(url, body))).toEqual(fields);
  });
});
