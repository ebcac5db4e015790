/**
 * The processes under test: the edgeplane server (built JavaScript, as `npm start` runs it) and
 * any other child that announces its address on stdout. Every child started here is tracked, so
 * the benchmark can stop them all when it fails or is interrupted.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FREE_PORTS } from '../test/helpers/server-process.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER_JS = join(ROOT, 'dist', 'bundle', 'server.js');
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const MAX_FORWARDED_CHUNKS = 5;

export interface Child {
  name: string;
  pid: number;
  url: string;
  /** The planes' URLs from their start-up lines (`storage` → `http://127.0.0.1:…`), for edgeplane. */
  planes: Record<string, string>;
  /** SIGTERM, then SIGKILL if it has not exited in time. Safe to call twice. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Last resort for an error or Ctrl-C: nothing started here may outlive the benchmark. */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Builds dist/ when it is missing or older than any source file, so the numbers match the code. */
export function ensureBuilt(): void {
  const built = existsSync(SERVER_JS) ? statSync(SERVER_JS).mtimeMs : 0;
  if (built >= newestMtime(join(ROOT, 'src'))) return;
  process.stderr.write('bench: dist/ is missing or stale, running npm run build\n');
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed: the benchmark measures the built server, fix the build first');
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export interface EdgeplaneOptions {
  dbFile: string;
  /** A PostgreSQL store instead of the SQLite file (with its master key, which PostgreSQL requires). */
  postgres?: { url: string; masterKey: string };
  bootstrapKey: string;
  /** When set, the server writes a V8 CPU profile there on exit. */
  cpuProfDir?: string | undefined;
  /** Another tree's built server (`<tree>/dist/bundle/server.js`), run from that tree: before-and-after comparisons. */
  serverJs?: string | undefined;
  /** More EDGEPLANE_* settings for this server. */
  settings?: Record<string, string>;
  /** Other variables for this server's process (Node's own). */
  environment?: Record<string, string>;
}

export function startEdgeplane(options: EdgeplaneOptions): Promise<Child> {
  const profile = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [];
  // Only the settings below apply: a fault rule or seed file left in the caller's shell would skew the numbers.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('EDGEPLANE_')));
  const serverJs = options.serverJs ?? SERVER_JS;
  const cwd = options.serverJs ? join(dirname(options.serverJs), '..', '..') : ROOT;
  return startChild(
    'edgeplane',
    [...profile, serverJs],
    /edgeplane: listening on (http:\/\/127\.0\.0\.1:\d+)/,
    {
      ...inherited,
      ...FREE_PORTS,
      DATABASE_URL: options.postgres ? options.postgres.url : `sqlite:${options.dbFile}`,
      ...(options.postgres ? { EDGEPLANE_MASTER_KEY: options.postgres.masterKey } : {}),
      EDGEPLANE_BOOTSTRAP_KEY: options.bootstrapKey,
      // The per-key limit (200/s by default) would cap every workload, all of which use one key.
      EDGEPLANE_RATE_LIMIT_PER_SECOND: '0',
      // Likewise the DNS plane's limit per client address: dnsperf is one address sending 100,000s a second.
      EDGEPLANE_DNS_RATE_LIMIT_PER_SECOND: '0',
      ...options.settings,
      ...options.environment,
    },
    cwd,
  );
}

/**
 * Spawns `node <args>` with exactly the environment `env` and resolves with the URL its stdout
 * announces (first capture of `readyLine`).
 *
 * The child's stdout goes through `grep` in a process of its own, which drops the request lines
 * (levels 10–30) and passes the rest on: a server logging every request is read the way a log
 * collector or a file would take it, and not in the event loop that runs the load generator (which
 * then had to split and test some 20,000 lines a second, competing with its own requests).
 */
export function startChild(name: string, args: string[], readyLine: RegExp, env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const filter = spawn('grep', ['--line-buffered', '-v', '-E', '^\\{"level":(10|20|30),'], { stdio: [child.stdout, 'pipe', 'inherit'] });
  // grep holds the pipe now; this process must not read from it too.
  child.stdout.destroy();
  let output = '';
  let ready = false;
  let forwarded = 0;
  filter.stdout.on('data', (d: Buffer) => {
    if (!ready) {
      output += d.toString();
      return;
    }
    // A few of the server's warnings and errors explain failed requests; a storm of them would bury the table.
    if (forwarded >= MAX_FORWARDED_CHUNKS) return;
    const worth = d.toString().trim();
    if (worth === '') return;
    process.stderr.write(`[${name}] ${worth.slice(0, 2000)}${++forwarded === MAX_FORWARDED_CHUNKS ? `\n[${name}] (further output suppressed)\n` : ''}\n`);
  });
  child.stderr.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d.toString()}`));
  const exited = new Promise<void>((resolve) => child.once('exit', () => (running.delete(child), resolve())));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  return new Promise<Child>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = () => {
      const url = readyLine.exec(output)?.[1];
      if (!url) return;
      ready = true;
      clearTimeout(timer);
      filter.stdout.off('data', onData);
      const planes = Object.fromEntries([...output.matchAll(/^edgeplane: ([a-z0-9-]+) listening on (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
      resolve({ name, pid: child.pid!, url, planes, stop });
    };
    filter.stdout.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (code ${child.exitCode}) before it was ready:\n${output}`));
    });
  });
}
