/**
 * What the container tests run: podman (installed by test/setup/podman.ts when missing), a local
 * OCI registry (Debian's docker-registry on a loopback port, storing under a temporary directory)
 * and the test image, a static HTTP server (test/fixtures/container-image/http-server.c) compiled
 * here, put in a tarball, imported and pushed to that registry.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PODMAN_INSTALL_STATUS, PODMAN_TOOLS } from '../setup/podman.js';

const run = promisify(execFile);
const SOURCE = join(import.meta.dirname, '../fixtures/container-image/http-server.c');

/** Undefined when podman can run containers here; else why not (the tests skip, saying so). */
export async function podmanUnavailable(waitMs = 120_000): Promise<string | undefined> {
  const deadline = Date.now() + waitMs;
  while (!PODMAN_TOOLS.every((path) => existsSync(path))) {
    const status = existsSync(PODMAN_INSTALL_STATUS) ? readFileSync(PODMAN_INSTALL_STATUS, 'utf8').trim() : 'not installed';
    if (status !== 'installing' || Date.now() > deadline) return `podman, runc, docker-registry and htpasswd are needed (${status})`;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    await run(
      'podman',
      ['--runtime', 'runc', 'run', '--rm', '--network', 'none', '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024', 'scratch-check'],
      {
        timeout: 30_000,
      },
    ).catch((error: { stderr?: string }) => {
      // No such image is the expected answer: podman itself works.
      if (!/scratch-check/.test(error.stderr ?? '')) throw error;
    });
    return undefined;
  } catch (error) {
    return `podman does not work here: ${(error as Error).message.split('\n')[0]}`;
  }
}

/** A loopback port free right now (bound on port 0, then closed). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface LocalRegistry {
  /** `127.0.0.1:port` */
  host: string;
  /** The test image's repository and tag in it. */
  image: { namespace: string; name: string; tag: string };
  /** What the registry asks for (basic authentication), when it asks. */
  credentials: { userName: string; password: string } | undefined;
  close(): Promise<void>;
}

/**
 * Starts docker-registry on a loopback port and pushes the test image to it as
 * `team/http-server:<tag>`; with `credentials`, the registry lets only that user in (htpasswd).
 */
export async function startRegistryWithImage(tag = '1', credentials?: { userName: string; password: string }): Promise<LocalRegistry> {
  const dir = await mkdtemp(join(tmpdir(), 'edgeplane-registry-'));
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  let auth = '';
  if (credentials) {
    const { stdout } = await run('htpasswd', ['-Bbn', credentials.userName, credentials.password]);
    await writeFile(join(dir, 'htpasswd'), stdout);
    auth = `auth:\n  htpasswd:\n    realm: edgeplane-test\n    path: ${dir}/htpasswd\n`;
  }
  await writeFile(join(dir, 'config.yml'), `version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: ${dir}/data\nhttp:\n  addr: ${host}\n${auth}`);
  const registry: ChildProcess = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: 'ignore' });
  const close = async () => {
    registry.kill();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await mkdir(join(dir, 'root'));
    await run('gcc', ['-static', '-O2', '-o', join(dir, 'root', 'server'), SOURCE]);
    await run('tar', ['-C', join(dir, 'root'), '-cf', join(dir, 'image.tar'), 'server']);
    const local = `localhost/edgeplane-test-http:${tag}`;
    await run('podman', ['import', '--change', 'ENTRYPOINT ["/server"]', '--change', 'EXPOSE 8080', join(dir, 'image.tar'), local]);
    for (let i = 0; ; i++) {
      const up = await fetch(`http://${host}/v2/`).then(
        (r) => r.ok || r.status === 401,
        () => false,
      );
      if (up) break;
      if (i > 100) throw new Error('docker-registry did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const creds = credentials ? ['--creds', `${credentials.userName}:${credentials.password}`] : [];
    await run('podman', ['push', '--quiet', '--tls-verify=false', ...creds, local, `${host}/team/http-server:${tag}`]);
    await run('podman', ['rmi', local]);
    return { host, image: { namespace: 'team', name: 'http-server', tag }, credentials, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Every container, volume and network edgeplane made (label io.edgeplane.managed / io.edgeplane.app). */
export async function managedLeftovers(appId: string): Promise<{ containers: string[]; volumes: string[]; networks: string[] }> {
  const list = async (args: string[]) => (await run('podman', args)).stdout.split('\n').filter(Boolean);
  return {
    containers: await list(['ps', '-a', '--filter', `label=io.edgeplane.app=${appId}`, '--format', '{{.Names}}']),
    volumes: await list(['volume', 'ls', '--filter', `label=io.edgeplane.app=${appId}`, '--format', '{{.Name}}']),
    networks: await list(['network', 'ls', '--filter', `label=io.edgeplane.app=${appId}`, '--format', '{{.Name}}']),
  };
}

/** The template of the test image: its server on port 8080 behind one CDN endpoint, `public`. */
export function testTemplate(registryId: number, registry: LocalRegistry, more: Record<string, unknown> = {}) {
  return {
    name: 'server',
    imageRegistryId: String(registryId),
    imageNamespace: registry.image.namespace,
    imageName: registry.image.name,
    imageTag: registry.image.tag,
    endpoints: [{ displayName: 'public', cdn: { portMappings: [{ containerPort: 8080 }] } }],
    ...more,
  };
}
