/**
 * Chooses what runs container applications (`EDGEPLANE_CONTAINER_RUNTIME`): `podman`, `simulated`,
 * or `auto` — podman when its binary (`EDGEPLANE_PODMAN`) is found and answers, else the
 * simulation. The choice and its reason are one line, said at start and in the health report.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Store } from '../../../store/types.js';
import type { ContainerAppDoc } from '../types.js';
import { type AppRuntime, PodmanApps, SimulatedApps } from './app-runtime.js';
import { CPU_SPAN } from './autoscale.js';
import { PodmanRuntime } from './podman.js';
import { revisionOf } from './specs.js';
import { ContainerSupervisor, type SupervisorOptions } from './supervisor.js';
import type { PullSource } from './types.js';

export interface RuntimeChoice {
  /** The store's location: what this installation's containers are labelled with (installationKey). */
  databaseUrl: string;
  containerRuntime: 'auto' | 'podman' | 'simulated';
  podmanPath: string;
  podmanOciRuntime: string;
  containerReconcileMs: number;
  containerDrainMs: number;
  containerAnycastAddress: string;
  containerScaleSampleMs: number;
  containerScaleUpMs: number;
  containerScaleDownMs: number;
}

export interface RuntimeDeps {
  store: Store;
  /** The applications' enabled log forwarding configurations and how their collectors are reached (their output goes there). */
  forwarding: SupervisorOptions['forwarding'];
  pullSource: (accountId: number, registryId: string) => Promise<PullSource | null>;
  logError: (error: unknown, message: string) => void;
}

/** First host id of the range a container's ids 0…65535 map to: root inside is this unprivileged id outside. */
const UID_BASE = 100_000;

/** The process's hard limit of one kind (`Max open files`), which podman may not exceed without CAP_SYS_RESOURCE. */
function hardLimit(name: string, fallback: number): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(name));
    const hard = line?.slice(name.length).trim().split(/\s+/)[1];
    return hard === undefined || hard === 'unlimited' ? fallback : Number(hard);
  } catch {
    return fallback;
  }
}

/**
 * The key of this installation on the host: a hash of where its store is (an SQLite file's full
 * path; a PostgreSQL server and database, without credentials: every instance on it shares the
 * key, and the supervisor's lock says which runs the containers). Two edgeplanes on one machine
 * never touch each other's containers.
 */
export function installationKey(databaseUrl: string): string {
  let where = databaseUrl;
  if (databaseUrl.startsWith('sqlite:')) where = `sqlite:${resolve(databaseUrl.slice('sqlite:'.length))}`;
  else {
    try {
      const url = new URL(databaseUrl);
      where = `postgres://${url.hostname}:${url.port || '5432'}${url.pathname}`;
    } catch {
      // Not a URL the store could open anyway: the text itself.
    }
  }
  return createHash('sha256').update(where).digest('hex').slice(0, 16);
}

/** The podman version, or why it cannot be used. */
function podmanVersion(binary: string): { version: string } | { reason: string } {
  try {
    const out = execFileSync(binary, ['version', '--format', '{{.Client.Version}}'], { timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return { version: out.toString().trim() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { reason: code === 'ENOENT' ? `${binary} was not found` : `${binary} does not answer (${(error as Error).message.split('\n')[0]})` };
  }
}

export function chooseAppRuntime(config: RuntimeChoice, deps: RuntimeDeps): AppRuntime {
  if (config.containerRuntime === 'simulated') return new SimulatedApps('simulated (EDGEPLANE_CONTAINER_RUNTIME=simulated): no container runs');
  const found = podmanVersion(config.podmanPath);
  if ('reason' in found) {
    if (config.containerRuntime === 'podman') throw new Error(`EDGEPLANE_CONTAINER_RUNTIME=podman, but ${found.reason}.`);
    return new SimulatedApps(`simulated (auto: ${found.reason}): no container runs`);
  }
  const runtime = new PodmanRuntime(
    {
      binary: config.podmanPath,
      ociRuntime: config.podmanOciRuntime,
      ulimits: { nofile: Math.min(hardLimit('Max open files', 65536), 65536), nproc: Math.min(hardLimit('Max processes', 32768), 32768) },
      uidBase: UID_BASE,
      installation: installationKey(config.databaseUrl),
    },
    `podman ${found.version}${config.podmanOciRuntime ? ` with ${config.podmanOciRuntime}` : ''} (${config.containerRuntime === 'auto' ? 'auto: found' : 'EDGEPLANE_CONTAINER_RUNTIME=podman'})`,
  );
  const supervisor = new ContainerSupervisor({
    store: deps.store,
    runtime,
    pullSource: deps.pullSource,
    logError: deps.logError,
    intervalMs: config.containerReconcileMs,
    probeTickMs: 100,
    drainMs: config.containerDrainMs,
    anycastAddress: config.containerAnycastAddress,
    forwarding: deps.forwarding,
    scale: { sampleMs: config.containerScaleSampleMs, upWindowMs: config.containerScaleUpMs, downWindowMs: config.containerScaleDownMs, ...CPU_SPAN },
  });
  const revisionsOf = (doc: ContainerAppDoc) => new Map(doc.containerTemplates.map((t) => [t.id, revisionOf(doc, t)]));
  return new PodmanApps(supervisor, runtime.description, revisionsOf);
}
