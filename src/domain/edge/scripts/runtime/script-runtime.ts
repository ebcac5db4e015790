/**
 * The scripts this instance runs: one process per script (script-process.ts), started on its
 * first request, running the script's live release with its variables and secrets. The change
 * feed says when a script changed (a publish, a rollback, a new secret; on PostgreSQL from any
 * instance): the new release starts in a new process at once, takes the requests once it serves,
 * and the old one finishes the requests it holds, then stops. A process that crashed or was stopped (a
 * loop past its CPU bound, memory) is started again on the next request. Every request is counted
 * for the script's statistics (statistics.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Store } from '../../../../store/types.js';
import type { EdgeScriptType } from '../../../../schemas/edge-scripts.js';
import type { OriginAddresses } from '../../origin/addresses.js';
import type { EdgeScriptService } from '../service.js';
import type { EdgeScriptStatistics } from '../statistics.js';
import { deniedNet } from './deny-net.js';
import { ScriptEgress } from './egress.js';
import { FAILURES, type ScriptFailure, type ScriptLimits } from './limits.js';
import { pruneScriptModules, writeScriptModules } from './script-modules.js';
import { type ScriptAnswer, ScriptProcess } from './script-process.js';

export interface ScriptRuntimeOptions {
  store: Store;
  scripts: EdgeScriptService;
  statistics: EdgeScriptStatistics;
  addresses: OriginAddresses;
  limits: ScriptLimits;
  /** EDGEPLANE_EDGE_SCRIPT_NETWORK: Deno's deny list, or a network namespace per process with the egress as its way out (egress.ts). */
  network?: 'deny-list' | 'namespace';
  /** Deno's cache and the published modules, kept across runs (script-modules.ts); unset: a temporary folder. */
  cacheDir?: string;
  /** Where the script's own messages and the runtime's failures are written. */
  log: (fields: Record<string, unknown>, message: string) => void;
  /** A start that failed is not tried again for this long (a script that cannot start is not started per request). */
  retryAfterFailureMs?: number;
}

interface Running {
  /** The script's account: only its zones run it. */
  accountId: number;
  /** Release and environment: a change to either starts a new process. */
  key: string;
  releaseId: number;
  scriptType: EdgeScriptType;
  process: ScriptProcess;
  started: Promise<ScriptFailure | undefined>;
  failedAt?: number;
}

interface ReleaseToRun {
  failure?: undefined;
  key: string;
  scriptId: number;
  releaseId: number;
  scriptType: EdgeScriptType;
  code: string;
  env: Record<string, string>;
}

/** The script's answer, and what it was: a failure is the edge's to answer (5xx). */
export type ScriptOutcome = ScriptAnswer & { scriptType?: EdgeScriptType };

export class ScriptRuntime {
  private readonly running = new Map<number, Running>();
  /** A script's process being chosen (first request, restart, change): concurrent requests share it. */
  private readonly choosing = new Map<number, Promise<Running | { failure: ScriptFailure }>>();
  /** Scripts changed again while a refresh of theirs ran: refreshed once more after it. */
  private readonly changedAgain = new Set<number>();
  private readonly refreshing = new Set<number>();
  private workDir: string | undefined;
  private egressServer: ScriptEgress | undefined;
  private egressListening: Promise<string> | undefined;
  private cacheDir: Promise<string> | undefined;
  private serial = 0;
  private closed = false;

  constructor(private readonly options: ScriptRuntimeOptions) {
    options.store.changes.subscribe((change) => {
      if (change.type === 'all') for (const id of this.running.keys()) this.changed(id);
      else if (change.type === 'doc' && change.kind === 'edgeScript') this.changed(Number(change.id));
    });
  }

  /** Processes running now (tests and the bench look). */
  get processes(): number {
    return this.running.size;
  }

  /** The process id of the script's current process (the bench reads its CPU time). */
  pidOf(scriptId: number): number | undefined {
    return this.running.get(scriptId)?.process.pid;
  }

  /** The start-up time of the script's current process, in ms (the bench's cold start). */
  startMsOf(scriptId: number): number | undefined {
    return this.running.get(scriptId)?.process.startMs;
  }

  /**
   * Runs one request (or hook) of the account's script: `meta` names the hook and the client's URL
   * and method; `headers` and `body` are the message.
   */
  async run(
    accountId: number,
    scriptId: number,
    meta: Record<string, unknown>,
    headers: Record<string, string | string[]>,
    body: Readable | Buffer | undefined,
  ): Promise<ScriptOutcome> {
    const chosen = await this.processFor(accountId, scriptId);
    if ('failure' in chosen) return { ok: false, failure: chosen.failure };
    const answer = await chosen.process.call(meta, headers, body);
    const failed = !answer.ok || answer.response.statusCode! >= 500;
    this.options.statistics.record({ scriptId, cpuMs: answer.ok ? answer.cpuMs : 0, failed });
    return { ...answer, scriptType: chosen.scriptType };
  }

  /** The account's script as a process serving its live release: the running one, or one started (again) now. */
  private async processFor(accountId: number, scriptId: number): Promise<Running | { failure: ScriptFailure }> {
    const current = this.running.get(scriptId);
    if (current && current.accountId === accountId) {
      const retryAfter = this.options.retryAfterFailureMs ?? 1000;
      const failedRecently = current.failedAt !== undefined && Date.now() - current.failedAt < retryAfter;
      if (current.process.alive || failedRecently) {
        const failure = await current.started;
        return failure ? { failure } : current;
      }
    }
    let choosing = this.choosing.get(scriptId);
    if (!choosing) {
      choosing = this.startLive(accountId, scriptId).finally(() => this.choosing.delete(scriptId));
      this.choosing.set(scriptId, choosing);
    }
    const chosen = await choosing;
    if ('failure' in chosen) return chosen;
    const failure = await chosen.started;
    return failure ? { failure } : chosen;
  }

  /** Reads the script's live release and starts a process for it, in place of the one there was. */
  private async startLive(accountId: number, scriptId: number): Promise<Running | { failure: ScriptFailure }> {
    const release = await this.releaseOf(accountId, scriptId);
    if (release.failure) return release;
    const next = this.startProcess(accountId, release);
    const before = this.running.get(scriptId);
    this.running.set(scriptId, next);
    if (before && before !== next) void before.process.drain();
    return next;
  }

  /**
   * The script changed (a publish, a rollback, its variables or secrets): its new release starts
   * in a new process, and takes the requests once it serves; the old process finishes those it
   * holds, then stops. A script no request ran here is left to its first request.
   */
  private changed(scriptId: number): void {
    if (!this.running.has(scriptId) || this.closed) return;
    if (this.refreshing.has(scriptId)) {
      this.changedAgain.add(scriptId);
      return;
    }
    this.refreshing.add(scriptId);
    void this.refresh(scriptId)
      .catch((error: unknown) => this.options.log({ scriptId, err: error }, 'an edge script could not be reloaded'))
      .finally(() => {
        this.refreshing.delete(scriptId);
        if (this.changedAgain.delete(scriptId)) this.changed(scriptId);
      });
  }

  private async refresh(scriptId: number): Promise<void> {
    const current = this.running.get(scriptId);
    if (!current) return;
    const release = await this.releaseOf(current.accountId, scriptId);
    if (release.failure) {
      // Deleted, or no release any more: requests find that out from the store.
      if (this.running.get(scriptId) === current) this.running.delete(scriptId);
      void current.process.drain();
      return;
    }
    if (release.key === current.key) return;
    const next = this.startProcess(current.accountId, release);
    await next.started;
    if (this.closed) return next.process.stop();
    const before = this.running.get(scriptId);
    this.running.set(scriptId, next);
    if (before) void before.process.drain();
  }

  private async releaseOf(accountId: number, scriptId: number): Promise<ReleaseToRun | { failure: ScriptFailure }> {
    const { scripts } = this.options;
    const script = await scripts.scripts.find(this.options.store, accountId, scriptId);
    if (!script) return { failure: FAILURES.unavailable(`The zone's edge script ${scriptId} does not exist.`) };
    const releaseId = script.doc.CurrentReleaseId;
    const release = releaseId > 0 ? await scripts.releases.find(this.options.store, accountId, releaseId) : undefined;
    if (!release) return { failure: FAILURES.unavailable(`The edge script ${scriptId} has no published release.`) };
    const env: Record<string, string> = {};
    for (const v of script.doc.Variables) env[v.Name] = v.DefaultValue ?? '';
    for (const s of script.doc.Secrets) env[s.Name] = s.Value ?? '';
    const key = `${releaseId}\u0000${JSON.stringify(env)}`;
    return { key, scriptId, releaseId, scriptType: script.doc.ScriptType, code: release.doc.Code, env };
  }

  private startProcess(accountId: number, release: ReleaseToRun): Running {
    const { log, limits, addresses } = this.options;
    if (this.closed) throw new Error('the script runtime is closed');
    const dir = join(this.work(), `${release.scriptId}-${release.releaseId}-${++this.serial}`);
    const process = new ScriptProcess({
      dir,
      env: release.env,
      limits,
      deniedNet: deniedNet(addresses),
      egress: this.options.network === 'namespace' ? this.egress() : undefined,
      log: (line) => log({ scriptId: release.scriptId, releaseId: release.releaseId }, line),
    });
    const started = this.cache()
      .then((cacheDir) => writeScriptModules(cacheDir, release.code))
      .then((modules) => process.start(modules))
      .catch((error: unknown) => {
        // Its modules or its folder could not be written: a failure to answer, never a rejection left unhandled.
        log({ scriptId: release.scriptId, err: error }, "an edge script's process could not be prepared");
        const failure = FAILURES.unavailable("The edge script's runtime could not be started.");
        process.stop(failure);
        return failure;
      });
    const running: Running = { accountId, key: release.key, releaseId: release.releaseId, scriptType: release.scriptType, process, started };
    void running.started.then((failure) => {
      if (failure) running.failedAt = Date.now();
    });
    return running;
  }

  /** The cache folder (made once): the configured one, or one in the temporary folder when it cannot be made. */
  private cache(): Promise<string> {
    if (this.cacheDir) return this.cacheDir;
    const wanted = this.options.cacheDir;
    const temporary = join(this.work(), '.deno');
    this.cacheDir = wanted
      ? // Its own user's only: it holds the scripts' code (mode applies to the folders made here).
        mkdir(wanted, { recursive: true, mode: 0o700 }).then(
          () => {
            // Old releases' modules go in the background; a start never waits for it.
            void pruneScriptModules(wanted).catch((error: unknown) =>
              this.options.log({ cacheDir: wanted, err: error }, "the edge scripts' cache could not be pruned"),
            );
            return wanted;
          },
          (error: unknown) => {
            this.options.log({ cacheDir: wanted, err: error }, "the edge scripts' cache folder could not be made: a temporary one is used");
            return temporary;
          },
        )
      : Promise.resolve(temporary);
    return this.cacheDir;
  }

  /** This runtime's folder (made on first use, removed at close): the processes' folders and sockets, the egress's socket. */
  private work(): string {
    this.workDir ??= mkdtempSync(join(tmpdir(), 'edgeplane-scripts-'));
    return this.workDir;
  }

  /** The egress the processes of this runtime reach the network through, listening once the first asks. */
  private egress(): Promise<string> {
    if (!this.egressListening) {
      this.egressListening = (async () => {
        this.egressServer = new ScriptEgress(join(this.work(), 'egress.sock'), this.options.addresses);
        await this.egressServer.listen();
        return this.egressServer.path;
      })();
      // Each process's start awaits it (and fails with it); never a rejection left unhandled meanwhile.
      this.egressListening.catch(() => undefined);
    }
    return this.egressListening;
  }

  /** Stops every process and removes their folders. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    this.running.clear();
    for (const r of all) r.process.stop();
    await Promise.all(all.map((r) => r.process.whenExited()));
    await this.egressServer?.close();
    if (this.workDir) rmSync(this.workDir, { recursive: true, force: true });
  }
}
