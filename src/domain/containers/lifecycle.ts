/**
 * The state machine of an application's `status`. Only the owner's wish (deployed or not) and the
 * moment it last changed are stored; the status is computed on every read from the clock and the
 * configured pace of background work (`jobDelayMs`), so an emulated rollout "finishes" without any
 * job running and tests drive it by moving a clock, never by sleeping.
 *
 * | state       | event                                                     | next state                  |
 * |-------------|-----------------------------------------------------------|-----------------------------|
 * | (none)      | create, with containers                                   | progressing                 |
 * | (none)      | create, without containers                                | inactive                    |
 * | inactive    | first container added (application deployed)              | progressing                 |
 * | inactive    | deploy (undeployed application with containers)           | progressing                 |
 * | progressing | jobDelayMs passes after deploy or a configuration change  | active                      |
 * | progressing | jobDelayMs passes after undeploy                          | inactive                    |
 * | active      | configuration change (settings, containers, endpoints)    | progressing                 |
 * | active      | undeploy                                                  | progressing, then inactive  |
 * | active      | restart                                                   | active (pods replaced)      |
 * | inactive    | undeploy, restart, configuration change                   | inactive                    |
 * | active      | deploy                                                    | active (nothing to do)      |
 * | any         | the account runs out of funds                             | suspended                   |
 * | suspended   | the account is funded again                               | the state it would have     |
 * | suspended   | deploy, undeploy (409), restart (403)                     | suspended                   |
 *
 * `failing` and `unknown` are never reached: the emulator runs no containers, so none can fail.
 */
import type { ApplicationStatus } from '../../schemas/containers.js';

export interface Lifecycle {
  /** The owner's wish: run the application (deploy) or not (undeploy). New applications run. */
  deployed: boolean;
  /** When the last deploy, undeploy or rollout of a configuration change began (epoch ms). */
  changedAt: number;
}

/** What a read needs besides the document. */
export interface LifecycleClock {
  now: number;
  /** How long a rollout or a stop takes (`config.jobDelayMs`). */
  delayMs: number;
  /** Whether the owning account has funds; without them every application is suspended. */
  funded: boolean;
}

export interface AppState {
  status: ApplicationStatus;
  /** Whether pods exist: while running, starting, or still stopping. */
  running: boolean;
}

export const initialLifecycle = (now: number): Lifecycle => ({ deployed: true, changedAt: now });

export function stateOf(lifecycle: Lifecycle, containerCount: number, clock: LifecycleClock): AppState {
  if (!clock.funded) return { status: 'suspended', running: false };
  if (containerCount === 0) return { status: 'inactive', running: false };
  const busy = clock.now < lifecycle.changedAt + clock.delayMs;
  if (lifecycle.deployed) return { status: busy ? 'progressing' : 'active', running: true };
  return busy ? { status: 'progressing', running: true } : { status: 'inactive', running: false };
}

/** Deploying a deployed application changes nothing (and does not restart its rollout). */
export const deployed = (l: Lifecycle, now: number): Lifecycle => (l.deployed ? l : { deployed: true, changedAt: now });

export const undeployed = (l: Lifecycle, now: number): Lifecycle => (l.deployed ? { deployed: false, changedAt: now } : l);

/** A configuration change rolls a deployed application out again; a stopped one stays stopped. */
export const rolledOut = (l: Lifecycle, now: number): Lifecycle => (l.deployed ? { deployed: true, changedAt: now } : l);
