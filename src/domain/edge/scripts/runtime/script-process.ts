/**
 * One script release running in a Deno process of its own, locked down: it reads nothing but its
 * modules, writes nothing but the Unix socket it serves on, sees only its own variables and
 * secrets, runs no subprocess, reaches no address the deployment refuses (`--deny-net`), and has a
 * bounded heap. edgeplane talks to it over that socket (HTTP/1.1, kept alive). A request that
 * keeps the process busy past its CPU bound has the process stopped; so does a start that takes
 * longer than the startup bound. Either way the callers get a failure (limits.ts), never a hang.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { Agent, type IncomingMessage, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { processCpuMs } from './cpu-usage.js';
import { FAILURES, PLATFORM_LIMITS, type ScriptFailure, type ScriptLimits } from './limits.js';
import type { ScriptModules } from './script-modules.js';

export const META_HEADER = 'x-edgeplane-script';
export const CPU_HEADER = 'x-edgeplane-cpu-ms';
const READY_LINE = 'edgeplane-script-ready';
/** The message's framing and the connection's own headers: the exchange with the script has its own. */
const NOT_FORWARDED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade']);
/** A request in flight, and the process's CPU time when it was first seen. */
interface Watched {
  startCpu: number | undefined;
  startedAt: number;
}

export interface ScriptProcessOptions {
  /** A folder of its own for its socket, made here and removed when the process ends. */
  dir: string;
  env: Record<string, string>;
  limits: ScriptLimits;
  /** `--deny-net` entries: the addresses the script may not reach (deny-net.ts). */
  deniedNet: string[];
  /**
   * The egress's socket (egress.ts), when the process runs in a network namespace of its own
   * (`unshare --net`): its only way out. Undefined: the host's network, bounded by `deniedNet`.
   */
  egress?: Promise<string> | undefined;
  /** Where the script's own messages (console, uncaught errors) go. */
  log: (line: string) => void;
}

/** What a script answered: a head and a body; or why it could not. */
export type ScriptAnswer = { ok: true; response: IncomingMessage; cpuMs: number } | { ok: false; failure: ScriptFailure };

let denoPath: string | undefined;
/** The Deno binary the npm package `deno` installed. */
export function denoBinary(): string {
  denoPath ??= join(dirname(createRequire(import.meta.url).resolve('deno/package.json')), 'deno');
  return denoPath;
}

export class ScriptProcess {
  private child: ChildProcess | undefined;
  private readonly agent: Agent;
  private readonly socket: string;
  private stopped: ScriptFailure | undefined;
  private readonly exited: Promise<void>;
  private markExited!: () => void;
  inFlight = 0;
  private readonly watched = new Set<Watched>();
  private sampler: NodeJS.Timeout | undefined;
  /** Set when the process started: how long from spawn to serving. */
  startMs = 0;

  constructor(private readonly options: ScriptProcessOptions) {
    this.socket = join(options.dir, 'script.sock');
    this.agent = new Agent({ keepAlive: true, maxSockets: 256 });
    this.exited = new Promise((resolve) => {
      this.markExited = resolve;
    });
  }

  /** The Deno process's id (the bench reads its CPU time). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get alive(): boolean {
    return this.stopped === undefined;
  }

  /** Starts the process on the release's modules; resolves once it serves, or with why it did not. */
  async start(modules: ScriptModules): Promise<ScriptFailure | undefined> {
    const { dir, env, limits } = this.options;
    await mkdir(dir, { recursive: true });
    // Stopped while it was being prepared (closed, or a newer release took its place).
    if (this.stopped) {
      await rm(dir, { recursive: true, force: true });
      return this.stopped;
    }
    const names = Object.keys(env);
    const egress = await this.options.egress;
    const socketsAllowed = egress ? `${this.socket},${egress}` : this.socket;
    const args = [
      'run',
      '--quiet',
      '--no-prompt',
      '--no-config',
      '--no-lock',
      '--no-remote',
      '--no-npm',
      `--import-map=${modules.importMap}`,
      `--v8-flags=--max-old-space-size=${limits.memoryMb}`,
      '--allow-net',
      ...(this.options.deniedNet.length > 0 ? [`--deny-net=${this.options.deniedNet.join(',')}`] : []),
      `--allow-read=${socketsAllowed}`,
      `--allow-write=${socketsAllowed}`,
      ...(names.length > 0 ? [`--allow-env=${names.join(',')}`] : []),
      modules.main,
      this.socket,
      String(limits.subrequests ?? PLATFORM_LIMITS.subrequests),
      ...(egress ? [egress] : []),
    ];
    // unshare (util-linux) makes the namespace and becomes Deno (exec: the same process id); without
    // root, in a user namespace of its own where the user is mapped to root.
    const [command, commandArgs] = egress
      ? ['unshare', [...(process.getuid?.() === 0 ? [] : ['--user', '--map-root-user']), '--net', '--', denoBinary(), ...args]]
      : [denoBinary(), args];
    const started = performance.now();
    const child = spawn(command, commandArgs, {
      cwd: dir,
      env: { ...env, DENO_DIR: modules.denoDir, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.once('error', (error) => {
      this.options.log(`the script's runtime could not start: ${error.message}`);
      this.stopped ??= FAILURES.unavailable("The edge script's runtime could not be started.");
      this.markExited();
    });
    child.once('exit', () => {
      this.stopped ??= FAILURES.crashed();
      this.agent.destroy();
      this.markExited();
      void rm(dir, { recursive: true, force: true });
    });
    child.stderr?.setEncoding('utf8').on('data', (text: string) => this.options.log(text.trimEnd()));
    return new Promise<ScriptFailure | undefined>((resolve) => {
      let out = '';
      const timer = setTimeout(() => {
        this.stop(FAILURES.startup(limits.startupMs));
        resolve(FAILURES.startup(limits.startupMs));
      }, limits.startupMs);
      child.stdout?.setEncoding('utf8').on('data', (text: string) => {
        if (out.includes(READY_LINE)) return this.options.log(text.trimEnd());
        out += text;
        if (!out.includes(READY_LINE)) return;
        clearTimeout(timer);
        this.startMs = performance.now() - started;
        resolve(undefined);
      });
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(this.stopped);
      });
    });
  }

  /**
   * One exchange with the script: `meta` says what to run (the hook, the client's URL and method),
   * `headers` and `body` are the message it runs on. The answer's body streams from the process.
   */
  call(meta: Record<string, unknown>, headers: Record<string, string | string[]>, body: Readable | Buffer | undefined): Promise<ScriptAnswer> {
    if (this.stopped) return Promise.resolve({ ok: false, failure: this.stopped });
    this.inFlight++;
    return new Promise<ScriptAnswer>((resolve) => {
      // Built without `delete` (which turns the object into a slow dictionary for node:http to walk).
      const outgoing: Record<string, string | string[]> = {};
      for (const name in headers) if (!NOT_FORWARDED.has(name)) outgoing[name] = headers[name]!;
      outgoing[META_HEADER] = JSON.stringify(meta);
      const watchdog = this.watch();
      let settled = false;
      const finish = (answer: ScriptAnswer) => {
        if (settled) return;
        settled = true;
        watchdog.cancel();
        resolve(answer);
      };
      const req = httpRequest({ socketPath: this.socket, path: '/', method: 'POST', headers: outgoing, agent: this.agent }, (response) => {
        const cpuMs = Number(response.headers[CPU_HEADER] ?? 0);
        delete response.headers[CPU_HEADER];
        const done = () => this.inFlight--;
        response.once('close', done);
        finish({ ok: true, response, cpuMs: Number.isFinite(cpuMs) ? cpuMs : 0 });
      });
      req.once('error', () => {
        this.inFlight--;
        finish({ ok: false, failure: this.stopped ?? FAILURES.crashed() });
      });
      if (body === undefined) req.end();
      else if (Buffer.isBuffer(body)) req.end(body);
      else body.pipe(req);
    });
  }

  /**
   * Watches a request: while any is in flight, the process's CPU time is read every quarter of the
   * bound (at most every 250 ms); a request during which the process used the bound's CPU time has
   * the process stopped (a loop never lets the runner answer). A request that waits (on a fetch, a
   * timer) uses no CPU and is left alone, however long it takes. Where the CPU time cannot be read
   * (not Linux), the bound is taken as wall time.
   */
  private watch(): { cancel: () => void } {
    const watched: Watched = { startCpu: undefined, startedAt: performance.now() };
    this.watched.add(watched);
    if (!this.sampler) this.sampleSoon(0);
    return { cancel: () => this.watched.delete(watched) };
  }

  private sampleSoon(delay: number): void {
    this.sampler = setTimeout(() => void this.sample(), delay);
  }

  private async sample(): Promise<void> {
    const { cpuMs } = this.options.limits;
    const pid = this.child?.pid;
    const now = pid === undefined ? undefined : await processCpuMs(pid);
    for (const w of this.watched) {
      if (now === undefined) {
        if (performance.now() - w.startedAt >= cpuMs) return this.stop(FAILURES.cpu(cpuMs));
      } else if (w.startCpu === undefined) w.startCpu = now;
      else if (now - w.startCpu >= cpuMs) return this.stop(FAILURES.cpu(cpuMs));
    }
    this.sampler = undefined;
    if (this.watched.size > 0 && this.alive) this.sampleSoon(Math.max(5, Math.min(250, cpuMs / 4)));
  }

  /** Stops the process at once; requests in flight fail with `why`. */
  stop(why: ScriptFailure = FAILURES.crashed()): void {
    this.stopped ??= why;
    clearTimeout(this.sampler);
    this.watched.clear();
    if (this.child) this.child.kill('SIGKILL');
    else this.markExited();
  }

  /** Stops it once its requests in flight are answered (a newer release took its place). */
  async drain(): Promise<void> {
    while (this.inFlight > 0 && this.alive) await new Promise((resolve) => setTimeout(resolve, 10));
    this.stop();
    await this.exited;
  }

  /** Resolves once the process has exited. */
  whenExited(): Promise<void> {
    return this.exited;
  }
}
