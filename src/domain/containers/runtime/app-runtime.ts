/**
 * What the container services and the edge ask of whatever runs applications, chosen once in the
 * composition root (choose.ts): the simulation (nothing runs; an application's status follows its
 * document and the clock, lifecycle.ts) or podman (real containers, supervisor.ts).
 */
import type { AppState } from '../lifecycle.js';
import type { ContainerAppDoc } from '../types.js';
import type { Backend } from './replicas.js';
import type { AppRuntimeState, ContainerSupervisor } from './supervisor.js';
import type { MeasuredPeriod } from './usage-history.js';
import type { RuntimeKind } from './types.js';

export interface AppRuntime {
  readonly kind: RuntimeKind;
  /** What runs applications and why it was chosen: said at start and in the health report. */
  readonly description: string;
  /** Whether applications' containers really run (their CDN endpoints then get pull zones that reach them). */
  readonly runsContainers: boolean;
  start(): void;
  close(): Promise<void>;
  /** The application's status as the runtime sees it; undefined: the document's computed one. */
  stateOf(appId: string, doc: ContainerAppDoc, funded: boolean): AppState | undefined;
  /** The containers of an application as they run, with their events (undefined with the simulation, or where another instance runs them). */
  observe(appId: string): AppRuntimeState | undefined;
  /**
   * What this instance measured of the application's containers in each period of `stepMs` that
   * overlaps from…to, keyed by the period's start (usage-history.ts); periods not measured here
   * are absent. Undefined with the simulation.
   */
  measured(appId: string, stepMs: number, fromMs: number, toMs: number, now: number): ReadonlyMap<number, MeasuredPeriod> | undefined;
  /** A ready replica for one request to a CDN endpoint; undefined when none is ready. */
  pick(endpointId: string, headers: Record<string, string | string[] | undefined>): Backend | undefined;
  /** Resolves once everything written so far has been acted on (a full reconcile). */
  settled(): Promise<void>;
}

export class SimulatedApps implements AppRuntime {
  readonly kind = 'simulated' as const;
  readonly runsContainers = false;

  constructor(readonly description: string) {}

  start(): void {}
  async close(): Promise<void> {}
  stateOf(): undefined {
    return undefined;
  }
  observe(): undefined {
    return undefined;
  }
  measured(): undefined {
    return undefined;
  }
  pick(): undefined {
    return undefined;
  }
  async settled(): Promise<void> {}
}

/**
 * Status from what runs: `active` when every template has its replicas of the current revision
 * ready and nothing else takes traffic (replicas on their way out may still be stopping); `failing` when a pull or start failed, or a container keeps
 * stopping; `progressing` while getting there (or stopping after an undeploy).
 */
export function runningState(doc: ContainerAppDoc, state: AppRuntimeState, funded: boolean, revisions: ReadonlyMap<string, string>): AppState {
  if (!funded) return { status: 'suspended', running: state.replicas.length > 0 };
  const live = state.replicas.filter((r) => !r.draining);
  if (!doc.lifecycle.deployed || doc.containerTemplates.length === 0) {
    return { status: live.length > 0 ? 'progressing' : 'inactive', running: live.length > 0 };
  }
  if (state.failure !== undefined || live.some((r) => r.restarts >= 3 && !r.ready)) return { status: 'failing', running: live.length > 0 };
  // What autoscaling decided, within limits the document may have changed since.
  const min = Math.max(doc.autoScaling.min, 1);
  const wanted = Math.min(Math.max(state.desired ?? min, min), Math.max(doc.autoScaling.max, min));
  const settled =
    live.length === wanted * doc.containerTemplates.length &&
    doc.containerTemplates.every((t) => live.filter((r) => r.templateId === t.id && r.revision === revisions.get(t.id) && r.ready).length === wanted);
  return { status: settled ? 'active' : 'progressing', running: live.length > 0 };
}

export class PodmanApps implements AppRuntime {
  readonly kind = 'podman' as const;
  readonly runsContainers = true;

  constructor(
    private readonly supervisor: ContainerSupervisor,
    readonly description: string,
    private readonly revisionsOf: (doc: ContainerAppDoc) => ReadonlyMap<string, string>,
  ) {}

  start(): void {
    this.supervisor.start();
  }

  close(): Promise<void> {
    return this.supervisor.close();
  }

  /** Undefined on an instance that does not run the containers (another holds the supervisor's lock). */
  stateOf(appId: string, doc: ContainerAppDoc, funded: boolean): AppState | undefined {
    if (!this.supervisor.owner) return undefined;
    return runningState(doc, this.supervisor.stateOf(appId), funded, this.revisionsOf(doc));
  }

  /** Undefined on an instance that does not run the containers. */
  observe(appId: string): AppRuntimeState | undefined {
    return this.supervisor.owner ? this.supervisor.stateOf(appId) : undefined;
  }

  /** What this instance measured, whether or not it runs the containers now (one that ran them before keeps what it measured then). */
  measured(appId: string, stepMs: number, fromMs: number, toMs: number, now: number): ReadonlyMap<number, MeasuredPeriod> {
    return this.supervisor.usage.periods(appId, stepMs, fromMs, toMs, now);
  }

  pick(endpointId: string, headers: Record<string, string | string[] | undefined>): Backend | undefined {
    return this.supervisor.replicas.pick(endpointId, headers);
  }

  settled(): Promise<void> {
    return this.supervisor.soon();
  }
}
