/**
 * No credential the API ever handed out is stored in clear. Every credential-bearing resource is
 * created (and its credentials reset), every value the API returned is collected, and then the
 * raw bytes the store holds are searched for each: every table as dumped (documents as text), the
 * SQLite database file and its WAL, and the remembered idempotent responses.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { startRegistry, type TestRegistry } from '../helpers/oci-registry.js';
import { base64, CERTIFICATE_KEY_PEM, CERTIFICATE_PEM } from '../http/pull-zones/fixtures.js';

const ADMIN_TOKEN = 'operator-token-for-secrets-0123456789';
/** The part 5 credential fields, wherever they appear in a response. */
const CREDENTIAL_FIELDS = new Set([
  'Key',
  'ApiKey',
  'ReadOnlyApiKey',
  'ApiAccessKey',
  'Password',
  'ReadOnlyPassword',
  'ZoneSecurityKey',
  'RequestSigningKey',
  'RequestSigningSecret',
  'LogForwardingToken',
  'CertificateKey',
]);

/** Credentials of an image registry behind HTTP Basic: saving them means signing in with them first. */
const REGISTRY_USER = { userName: 'deployer', password: 'registry-password-8e2c4a6f0b' };
const FORWARDING_TOKEN = 'container-log-token-1d3f5b7a9c';

let t: TestContext;
let registry: TestRegistry;
const secrets = new Set<string>();
beforeAll(async () => {
  registry = await startRegistry({ auth: 'basic', users: { [REGISTRY_USER.userName]: REGISTRY_USER.password } });
  await registry.push('team/app', '1.0');
}, 300_000);
afterAll(async () => {
  await registry?.close();
});
beforeEach(async () => {
  secrets.clear();
  t = await createTestApp({ adminToken: ADMIN_TOKEN });
});
afterEach(async () => {
  await t.close();
});

/** Collects every credential field in a response body, at any depth. */
function collect(value: unknown): void {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (CREDENTIAL_FIELDS.has(k) && typeof child === 'string' && child.length > 0) secrets.add(child);
        else stack.push(child);
      }
    }
  }
}

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.request(method, url, body, undefined, headers);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  collect(res.body);
  return res.body;
}

async function createEveryCredential(): Promise<void> {
  secrets.add(t.key);
  // Operator-created account: its first key comes back once.
  const created = await t.request('POST', '/_edgeplane/accounts', { Name: 'second' }, null, { authorization: `Bearer ${ADMIN_TOKEN}` });
  expect(created.status).toBe(201);
  secrets.add(created.body.ApiKey);

  await call('POST', '/apikey', {});
  await call('POST', '/apikey', { Roles: ['ReadOnly'] }, { 'idempotency-key': 'sealed-replay' });

  const storage = await call('POST', '/storagezone', { Name: 'vault', Region: 'DE' }, { 'idempotency-key': 'storage-once' });
  await call('POST', `/storagezone/${storage.Id}/resetPassword`);
  await call('POST', `/storagezone/resetReadOnlyPassword?id=${storage.Id}`);

  const zone = await call('POST', '/pullzone', { Name: 'guarded', OriginUrl: 'https://origin.example.com' });
  await call('POST', `/pullzone/${zone.Id}`, {
    ZoneSecurityEnabled: true,
    RequestSigningEnabled: true,
    RequestSigningKey: 'signing-key-7f3a9c1e5b',
    RequestSigningSecret: 'signing-secret-2d8e4f6a0c',
    RequestSigningRegionName: 'eu',
    LogForwardingEnabled: true,
    LogForwardingHostname: 'logs.example.com',
    LogForwardingPort: 514,
    LogForwardingToken: 'forwarding-token-9b1d3f5e7a',
  });
  secrets.add('signing-key-7f3a9c1e5b').add('signing-secret-2d8e4f6a0c').add('forwarding-token-9b1d3f5e7a');
  await call('POST', `/pullzone/${zone.Id}/resetSecurityKey`, {});
  await call('POST', `/pullzone/${zone.Id}/resetSecurityKey`, { SecurityKey: 'chosen-security-key-4c6e8a' });
  secrets.add('chosen-security-key-4c6e8a');
  await call('POST', `/pullzone/${zone.Id}/addHostname`, { Hostname: 'cdn.example.com' });
  await call('POST', `/pullzone/${zone.Id}/addCertificate`, {
    Hostname: 'cdn.example.com',
    Certificate: base64(CERTIFICATE_PEM),
    CertificateKey: base64(CERTIFICATE_KEY_PEM),
  });
  secrets.add(base64(CERTIFICATE_KEY_PEM));
  // The key's PEM body lines, so neither encoding of it may be stored.
  for (const line of CERTIFICATE_KEY_PEM.split('\n')) if (line.length >= 40 && !line.startsWith('-----')) secrets.add(line);

  const library = await call('POST', '/videolibrary', { Name: 'Films' });
  await call('POST', `/videolibrary/${library.Id}/resetApiKey`);
  await call('POST', `/videolibrary/${library.Id}/resetReadOnlyApiKey`);

  const app = await call('POST', '/mc/apps', {
    name: 'shop',
    runtimeType: 'shared',
    autoScaling: { min: 1, max: 1 },
    regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
  });
  await call('POST', `/mc/apps/${app.id}/containers`, {
    name: 'web',
    imageName: 'nginx',
    imageNamespace: 'library',
    imageTag: '1.25',
    imageRegistryId: '1',
    endpoints: [{ displayName: 'public', cdn: { isSslEnabled: true, portMappings: [{ containerPort: 80, exposedPort: 80, protocols: ['tcp'] }] } }],
  });

  // Container registries keep a password, log forwarding a token.
  await call('POST', '/mc/registries', { displayName: 'private', hostName: registry.url, passwordCredentials: REGISTRY_USER });
  await call('POST', '/mc/log/forwarding', {
    app: app.id,
    type: 'SyslogTcp',
    endpoint: 'logs.example.com',
    port: 6514,
    token: FORWARDING_TOKEN,
    format: 'SyslogRfc5424',
    enabled: true,
  });
  secrets.add(REGISTRY_USER.password).add(FORWARDING_TOKEN);
  await call('GET', '/mc/registries');
  await call('GET', '/mc/log/forwarding');

  // Everything as it is now, including zones other resources made on their own (a library's).
  await call('GET', '/apikey');
  await call('GET', '/storagezone');
  await call('GET', '/pullzone?includeCertificate=true');
  await call('GET', '/videolibrary');
  for (const item of (await call('GET', '/pullzone')) as { Id: number }[]) await call('GET', `/pullzone/${item.Id}?includeCertificate=true`);
}

/** What the store holds, as bytes: the database files, or every table dumped. */
async function storedBytes(): Promise<Buffer> {
  const parts: Buffer[] = [];
  if (t.store.dialect === 'sqlite') {
    const file = t.databaseUrl.slice('sqlite:'.length);
    for (const f of [file, `${file}-wal`]) if (existsSync(f)) parts.push(readFileSync(f));
  }
  // Every table as dumped, too: SQLite stores documents compressed, and a credential left unsealed
  // inside one would not show in the file's bytes; the dump has them as text.
  for await (const record of t.store.dump()) parts.push(Buffer.from(JSON.stringify(record)));
  // Remembered responses are not part of a dump; read them as stored.
  for (const key of ['sealed-replay', 'storage-once']) {
    const record = await t.store.idempotency.find(t.accountId, key);
    expect(record?.sealedResponse).toBeTruthy();
    parts.push(Buffer.from(record!.sealedResponse!));
  }
  return Buffer.concat(parts);
}

describe('credentials at rest', () => {
  it('stores none of the credentials the API returned in clear', async () => {
    await createEveryCredential();
    expect(secrets.size).toBeGreaterThanOrEqual(20);
    const bytes = await storedBytes();
    // The search can see: names are stored in clear.
    expect(bytes.includes(Buffer.from('vault')), 'a stored name').toBe(true);
    const found = [...secrets].filter((s) => bytes.includes(Buffer.from(s, 'utf8')));
    expect(found).toEqual([]);
  });

  it('still returns the credentials after a restart, so they are sealed, not dropped', async () => {
    await createEveryCredential();
    const before = await t.get('/pullzone?includeCertificate=true');
    await t.restart();
    expect((await t.get('/pullzone?includeCertificate=true')).body).toEqual(before.body);
    const replay = await t.request('POST', '/storagezone', { Name: 'vault', Region: 'DE' }, undefined, { 'idempotency-key': 'storage-once' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(secrets.has(replay.body.Password)).toBe(true);
    expect((await t.get('/mc/log/forwarding')).body.items[0].token).toBe(FORWARDING_TOKEN);
    // The registry password is never shown, but edgeplane still signs in with it.
    const [saved] = (await t.get('/mc/registries')).body.items;
    expect(saved).toMatchObject({ userName: 'deployer', firstPasswordSymbols: 'reg', lastPasswordSymbols: 'f0b' });
    const tags = await t.post('/mc/registries/tags', { registryId: String(saved.id), imageNamespace: 'team', imageName: 'app' });
    expect(tags.body).toEqual([{ name: '1.0' }]);
  });
});
