/**
 * A real image registry for tests: Debian's `docker-registry` (the reference implementation of
 * the OCI distribution API), run in the foreground on a free loopback port with its own
 * configuration and filesystem storage in a temporary directory — never as a system service.
 *
 * Three ways in, as registries in the wild offer them:
 * - `none`: anyone reads and writes;
 * - `basic`: HTTP Basic against an htpasswd file (the registry answers 401 `Basic realm=…`);
 * - `token`: the registry answers 401 `Bearer realm=…` and trusts JWTs from a token service this
 *   helper runs beside it, which checks Basic credentials (and, with `anonymousPull`, gives pull
 *   tokens to anyone, as public registries do).
 *
 * Images are pushed through the registry's own HTTP API (blob uploads, then the manifest): no
 * container engine is needed.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash, createPrivateKey, randomUUID, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureDebianPackage } from './debian-package.js';

const run = promisify(execFile);

export type RegistryAuth = 'none' | 'basic' | 'token';

export interface RegistryOptions {
  auth?: RegistryAuth;
  /** User name → password, for `basic` and `token`. */
  users?: Record<string, string>;
  /** `token` only: hand pull tokens to callers without credentials, as public registries do. */
  anonymousPull?: boolean;
}

/** What an image's configuration says about running it (the OCI image spec's `config`). */
export interface ImageSpec {
  exposedPorts?: string[];
  volumes?: string[];
  env?: string[];
  labels?: Record<string, string>;
  /** `docker` pushes a Docker v2 manifest instead of an OCI one. */
  manifestType?: 'oci' | 'docker';
  /** Push an image index (linux/amd64 plus an attestation entry) in front of the manifest. */
  index?: boolean;
}

export interface PushedImage {
  /** Digest of what the tag points at (the index, when there is one). */
  digest: string;
  manifestDigest: string;
  configDigest: string;
}

export interface TestRegistry {
  /** `http://127.0.0.1:<port>`: what a registry's `hostName` is set to. */
  url: string;
  push(repository: string, tag: string, image?: ImageSpec): Promise<PushedImage>;
  /** Requests the registry has logged (method and path), to see what edgeplane asked. */
  requests(): string[];
  close(): Promise<void>;
}

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A token service of the kind registries delegate sign-in to: JWTs signed with a key the registry trusts. */
class TokenService {
  private server?: Server;
  url = '';

  constructor(
    private readonly key: KeyObject,
    private readonly certificate: X509Certificate,
    private readonly users: Record<string, string>,
    private readonly anonymousPull: boolean,
  ) {}

  async start(): Promise<void> {
    const port = await freePort();
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const who = this.caller(req.headers.authorization);
      if (who === null || (who === undefined && !this.anonymousPull)) {
        res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="token"' });
        res.end('{"details":"incorrect username or password"}');
        return;
      }
      const scope = url.searchParams.get('scope');
      // Signed-in callers get what they ask for; anonymous ones may only pull.
      const access = scope ? [this.access(scope, who !== undefined)] : [];
      const token = this.mint(url.searchParams.get('service') ?? '', who ?? '', access);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ token, access_token: token, expires_in: 300, issued_at: new Date().toISOString() }));
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}/token`;
  }

  /** The signed-in user, undefined for no credentials, null for wrong ones. */
  private caller(header: string | undefined): string | undefined | null {
    if (!header?.startsWith('Basic ')) return undefined;
    const [user, ...rest] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    return user !== undefined && this.users[user] === rest.join(':') ? user : null;
  }

  private access(scope: string, signedIn: boolean) {
    const [type, name, actions = ''] = scope.split(':');
    const granted = actions.split(',').filter((a) => signedIn || a === 'pull');
    return { type, name, actions: granted };
  }

  mint(service: string, subject: string, access: { type?: string; name?: string; actions: string[] }[]): string {
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: 'ES256', typ: 'JWT', x5c: [this.certificate.raw.toString('base64')] };
    const claims = { iss: 'edgeplane-test-issuer', sub: subject, aud: service, exp: now + 300, nbf: now - 30, iat: now, jti: randomUUID(), access };
    const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
    const signature = sign('sha256', Buffer.from(input), { key: this.key, dsaEncoding: 'ieee-p1363' });
    return `${input}.${b64url(signature)}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const SERVICE = 'edgeplane-test-registry';

export async function startRegistry(options: RegistryOptions = {}): Promise<TestRegistry> {
  await ensureDebianPackage('docker-registry', 'docker-registry');
  const auth = options.auth ?? 'none';
  const users = options.users ?? {};
  const dir = mkdtempSync(join(tmpdir(), 'edgeplane-registry-'));
  const port = await freePort();
  let tokens: TokenService | undefined;
  let authSection = '';

  if (auth === 'basic') {
    await ensureDebianPackage('htpasswd', 'apache2-utils');
    const lines: string[] = [];
    for (const [user, password] of Object.entries(users)) lines.push((await run('htpasswd', ['-Bbn', user, password])).stdout.trim());
    writeFileSync(join(dir, 'htpasswd'), `${lines.join('\n')}\n`);
    authSection = `auth:\n  htpasswd:\n    realm: edgeplane-test\n    path: ${join(dir, 'htpasswd')}\n`;
  }
  if (auth === 'token') {
    await ensureDebianPackage('openssl', 'openssl');
    const keyFile = join(dir, 'token.key');
    const certFile = join(dir, 'token.crt');
    await run('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
      ...['-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=edgeplane-test-tokens'],
    ]);
    tokens = new TokenService(createPrivateKey(readFileSync(keyFile)), new X509Certificate(readFileSync(certFile)), users, options.anonymousPull ?? false);
    await tokens.start();
    authSection = `auth:\n  token:\n    realm: ${tokens.url}\n    service: ${SERVICE}\n    issuer: edgeplane-test-issuer\n    rootcertbundle: ${certFile}\n`;
  }

  const config = join(dir, 'config.yml');
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: info',
      '  accesslog:',
      '    disabled: false',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(dir, 'data')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: 127.0.0.1:${port}`,
      `  secret: ${randomUUID()}`,
      authSection,
    ].join('\n'),
  );

  const child: ChildProcess = spawn('docker-registry', ['serve', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const logged: string[] = [];
  const collect = (chunk: Buffer) => {
    // Kept to explain a failed start; a long-running registry's log need not pile up.
    if (output.length < 65_536) output += chunk.toString('utf8');
    for (const m of chunk.toString('utf8').matchAll(/"(GET|HEAD|POST|PUT|PATCH|DELETE) ([^ "]+) HTTP/g)) logged.push(`${m[1]} ${m[2]}`);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A test worker that ends without closing the registry must not leave it running.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited at start:\n${output}`);
    try {
      await fetch(`${url}/v2/`);
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`docker-registry did not answer on ${url} within 20 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const [firstUser, firstPassword] = Object.entries(users)[0] ?? [];
  const authorization = (repository: string): string | undefined => {
    if (auth === 'basic' && firstUser !== undefined) return `Basic ${Buffer.from(`${firstUser}:${firstPassword}`).toString('base64')}`;
    if (auth === 'token') return `Bearer ${tokens!.mint(SERVICE, 'pusher', [{ type: 'repository', name: repository, actions: ['pull', 'push'] }])}`;
    return undefined;
  };

  async function upload(repository: string, bytes: Buffer): Promise<string> {
    const headers: Record<string, string> = {};
    const auth = authorization(repository);
    if (auth) headers['authorization'] = auth;
    const start = await fetch(`${url}/v2/${repository}/blobs/uploads/`, { method: 'POST', headers });
    if (start.status !== 202) throw new Error(`blob upload start: ${start.status} ${await start.text()}`);
    const location = new URL(start.headers.get('location')!, url);
    const digest = sha256(bytes);
    location.searchParams.set('digest', digest);
    const put = await fetch(location, { method: 'PUT', body: new Uint8Array(bytes), headers: { ...headers, 'content-type': 'application/octet-stream' } });
    if (put.status !== 201) throw new Error(`blob upload: ${put.status} ${await put.text()}`);
    return digest;
  }

  async function putManifest(repository: string, reference: string, mediaType: string, body: Buffer): Promise<string> {
    const headers: Record<string, string> = { 'content-type': mediaType };
    const auth = authorization(repository);
    if (auth) headers['authorization'] = auth;
    const res = await fetch(`${url}/v2/${repository}/manifests/${reference}`, { method: 'PUT', body: new Uint8Array(body), headers });
    if (res.status !== 201) throw new Error(`manifest push: ${res.status} ${await res.text()}`);
    return sha256(body);
  }

  return {
    url,
    requests: () => [...logged],
    async push(repository, tag, image = {}) {
      const docker = image.manifestType === 'docker';
      const config = Buffer.from(
        JSON.stringify({
          architecture: 'amd64',
          os: 'linux',
          created: '2026-01-01T00:00:00Z',
          config: {
            ...(image.exposedPorts ? { ExposedPorts: Object.fromEntries(image.exposedPorts.map((p) => [p, {}])) } : {}),
            ...(image.volumes ? { Volumes: Object.fromEntries(image.volumes.map((v) => [v, {}])) } : {}),
            Env: image.env ?? ['PATH=/usr/local/bin:/usr/bin:/bin'],
            ...(image.labels ? { Labels: image.labels } : {}),
          },
          rootfs: { type: 'layers', diff_ids: [] },
        }),
      );
      const layer = Buffer.from(`a layer of ${repository}:${tag}`);
      const configDigest = await upload(repository, config);
      const layerDigest = await upload(repository, layer);
      const mediaType = docker ? 'application/vnd.docker.distribution.manifest.v2+json' : 'application/vnd.oci.image.manifest.v1+json';
      const manifest = Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType,
          config: {
            mediaType: docker ? 'application/vnd.docker.container.image.v1+json' : 'application/vnd.oci.image.config.v1+json',
            digest: configDigest,
            size: config.length,
          },
          layers: [
            {
              mediaType: docker ? 'application/vnd.docker.image.rootfs.diff.tar.gzip' : 'application/vnd.oci.image.layer.v1.tar+gzip',
              digest: layerDigest,
              size: layer.length,
            },
          ],
        }),
      );
      if (!image.index) {
        const digest = await putManifest(repository, tag, mediaType, manifest);
        return { digest, manifestDigest: digest, configDigest };
      }
      const manifestDigest = await putManifest(repository, sha256(manifest), mediaType, manifest);
      // An attestation-like entry first, as build tools write them: a reader must pass over it.
      const attestation = Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType,
          config: { mediaType: 'application/vnd.oci.empty.v1+json', digest: configDigest, size: config.length },
          layers: [],
        }),
      );
      const attestationDigest = await putManifest(repository, sha256(attestation), mediaType, attestation);
      const index = Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: 'application/vnd.oci.image.index.v1+json',
          manifests: [
            { mediaType, digest: attestationDigest, size: attestation.length, platform: { os: 'unknown', architecture: 'unknown' } },
            { mediaType, digest: manifestDigest, size: manifest.length, platform: { os: 'linux', architecture: 'amd64' } },
          ],
        }),
      );
      const digest = await putManifest(repository, tag, 'application/vnd.oci.image.index.v1+json', index);
      return { digest, manifestDigest, configDigest };
    },
    async close() {
      process.off('exit', orphaned);
      child.kill('SIGTERM');
      await exited;
      await tokens?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
