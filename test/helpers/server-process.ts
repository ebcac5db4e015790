/** Starts the real server entry point (a bundle of the sources) as a child process, as `npm start` does. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const root = PACKAGE_ROOT;

/**
 * Where the test run bundles the server and the CLI from the sources (test/setup/server-bundle.ts).
 * Two levels below the package root, as dist/bundle/ is: the bundle finds package.json there.
 */
export const TEST_BUNDLE_DIR = '.tmp/test-bundle';

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** Where each listening plane is, from its start-up line: `{api: 'http://…', storage: 'http://…'}`. */
  planes: Record<string, string>;
  stdout: () => string;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The entry points: `TEST_SERVER` bundled from the sources at the start of the run (the default),
 * `BUNDLED_SERVER` the build `npm start` runs (dist/bundle/, made by `npm ci`).
 */
export const TEST_SERVER = [`${TEST_BUNDLE_DIR}/server.js`];
export const BUNDLED_SERVER = ['dist/bundle/server.js'];

/** Every plane on loopback, each on a port the kernel picks and the server prints (tests and benchmarks run side by side). */
export const FREE_PORTS = {
  HOST: '127.0.0.1',
  PORT: '0',
  EDGEPLANE_STORAGE_PORT: '0',
  EDGEPLANE_DNS_PORT: '0',
  EDGEPLANE_EDGE_PORT: '0',
  EDGEPLANE_EDGE_TLS_PORT: '0',
  EDGEPLANE_S3_PORT: '0',
  EDGEPLANE_VIDEO_PORT: '0',
  EDGEPLANE_LOGGING_PORT: '0',
} as const;

/** A server process's environment: every plane on a free port, request logs on, container apps simulated (no podman run at start), then `env`. */
export function serverEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...FREE_PORTS, LOG_LEVEL: 'info', EDGEPLANE_CONTAINER_RUNTIME: 'simulated', ...env };
}

/** Resolves once the server logs that it listens; rejects if it exits first. */
export function startServer(env: Record<string, string>, entry = TEST_SERVER): Promise<ServerProcess> {
  const child = spawn(process.execPath, entry, { cwd: root, env: serverEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: nothing else would stop it, and a stray server holds its ports and CPU.
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}\n${err}`));
    }, 20_000);
    child.stdout!.on('data', () => {
      const m = /edgeplane: listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        child,
        base: m[1]!,
        planes: Object.fromEntries([...out.matchAll(/^edgeplane: ([a-z0-9-]+) listening on (\S+)$/gm)].map((p) => [p[1]!, p[2]!])),
        stdout: () => out,
        stderr: () => err,
        stop: async (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`server exited with ${code}:\n${out}\n${err}`), { code, stderr: err }));
    });
  });
}
