/**
 * The scripts this instance runs: one process per script (script-process.ts), started on its
 * first request, running the script's live release with its variables and secrets. The change
 * feed says when a script changed (a publish, a rollback, a new secret; on PostgreSQL from any
 * instance): its next request looks again, and a new release starts in a new process while the
 * old one finishes the requests it holds, then stops. A process that crashed or was stopped (a
 * loop past its CPU bound, memory) is started again on the next request. Every request is counted
 * for the script's statistics (statistics.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Store } from '../../../../store/types.js';
import type { EdgeScriptType } from '../../../../schemas/edge-scripts.js';
import type { OriginAddresses } from '../../origin/addresses.js';
import type { EdgeScriptService } from '../service.js';
import type { EdgeScriptStatistics } from '../statistics.js';
import { deniedNet } from './deny-net.js';
import { FAILURES, type ScriptFailure, type ScriptLimits } from './limits.js';
import { type ScriptAnswer, ScriptProcess } from './script-process.js';

export interface ScriptRuntimeOptions {
  store: Store;
  scripts: EdgeScriptService;
  statistics: EdgeScriptStatistics;
  addresses: OriginAddresses;
  limits: ScriptLimits;
  /** Where the script's own messages and the runtime's failures are written. */
  log: (fields: Record<string, unknown>, message: string) => void;
  /** A start that failed is not tried again for this long (a script that cannot start is not started per request). */
  retryAfterFailureMs?: number;
}

interface Running {
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
  /** Scripts the change feed said changed since their process was chosen. */
  private readonly stale = new Set<number>();
  private allStale = false;
  private workDir: string | undefined;
  private serial = 0;
  private closed = false;

  constructor(private readonly options: ScriptRuntimeOptions) {
    options.store.changes.subscribe((change) => {
      if (change.type === 'all') this.allStale = true;
      else if (change.type === 'doc' && change.kind === 'edgeScript') this.stale.add(Number(change.id));
    });
  }

  /** Processes running now (tests and the bench look). */
  get processes(): number {
    return this.running.size;
  }

  /** The start-up time of the script's current process, in ms (the bench's cold start). */
  startMsOf(scriptId: number): number | undefined {
    return this.running.get(scriptId)?.process.startMs;
  }

  /**
   * Runs one request (or hook) of the account's script: `meta` names the hook and the client's URL
   * and method; `headers` and `body` are the message. The script's type is checked by the caller.
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

  /** The account's script as a process serving its live release, started (or started again) when needed. */
  private async processFor(accountId: number, scriptId: number): Promise<Running | { failure: ScriptFailure }> {
    this.options.store.changes.generation();
    let current = this.running.get(scriptId);
    if (current && (this.allStale || this.stale.has(scriptId) || !current.process.alive)) {
      const fresh = await this.refreshed(accountId, scriptId, current);
      if ('failure' in fresh) return fresh;
      current = fresh;
    } else if (!current) {
      const fresh = await this.refreshed(accountId, scriptId, undefined);
      if ('failure' in fresh) return fresh;
      current = fresh;
    }
    const failure = await current.started;
    return failure ? { failure } : current;
  }

  /** Reads the script again and keeps, replaces or starts its process. */
  private async refreshed(accountId: number, scriptId: number, current: Running | undefined): Promise<Running | { failure: ScriptFailure }> {
    if (this.allStale) {
      this.allStale = false;
      for (const id of this.running.keys()) this.stale.add(id);
    }
    this.stale.delete(scriptId);
    const release = await this.releaseOf(accountId, scriptId);
    if (release.failure) {
      if (current) this.retire(scriptId, current);
      return release;
    }
    const latest = this.running.get(scriptId);
    if (latest && latest.key === release.key) {
      if (latest.process.alive) return latest;
      const retryAfter = this.options.retryAfterFailureMs ?? 1000;
      if (latest.failedAt !== undefined && Date.now() - latest.failedAt < retryAfter) return latest;
    }
    const next = this.startProcess(release);
    this.running.set(scriptId, next);
    if (latest && latest !== next) void latest.started.then(() => latest.process.drain());
    return next;
  }

  private retire(scriptId: number, current: Running): void {
    if (this.running.get(scriptId) === current) this.running.delete(scriptId);
    void current.process.drain();
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

  private startProcess(release: ReleaseToRun): Running {
    const { log, limits, addresses } = this.options;
    if (this.closed) throw new Error('the script runtime is closed');
    this.workDir ??= mkdtempSync(join(tmpdir(), 'edgeplane-scripts-'));
    const dir = join(this.workDir, `${release.scriptId}-${release.releaseId}-${++this.serial}`);
    const process = new ScriptProcess({
      dir,
      code: release.code,
      env: release.env,
      limits,
      deniedNet: deniedNet(addresses),
      log: (line) => log({ scriptId: release.scriptId, releaseId: release.releaseId }, line),
    });
    const running: Running = { key: release.key, releaseId: release.releaseId, scriptType: release.scriptType, process, started: process.start() };
    void running.started.then((failure) => {
      if (failure) running.failedAt = Date.now();
    });
    return running;
  }

  /** Stops every process and removes their folders. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    this.running.clear();
    for (const r of all) r.process.stop();
    await Promise.all(all.map((r) => r.process.whenExited()));
    if (this.workDir) rmSync(this.workDir, { recursive: true, force: true });
  }
}
