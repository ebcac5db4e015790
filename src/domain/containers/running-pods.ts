/**
 * The pods of an application as podman runs them, for its overview: pod `i` is replica slot `i`
 * of every template (its name the stored pod's id), each of its containers with the state podman
 * and the probes report — ready, started or not, its restarts, its last exit code, and the last
 * event about it as its reason and message, and the CPU each used at its last measure (percent of its limit).
 */
import type { ContainerStatus, OverviewContainerT, OverviewPodT, PodStatus } from '../../schemas/container-platform.js';
import type { Replica } from './runtime/replicas.js';
import { LABELS } from './runtime/types.js';
import type { AppRuntimeState } from './runtime/supervisor.js';
import type { ContainerAppDoc } from './types.js';

/** Events that tell of something wrong with a container (its reason and message in the overview). */
const TROUBLE = new Set(['died', 'oom', 'kill', 'unhealthy', 'failed']);

/** A fraction of the CPU limit as the percent the overview and the charts show, to a tenth (0 when not measured). */
export const percentOf = (fraction: number | undefined) => (fraction === undefined ? 0 : Math.round(fraction * 1000) / 10);

export interface RunningPod {
  slot: number;
  pod: OverviewPodT;
}

function containerStatus(r: Replica | undefined): ContainerStatus {
  if (r?.container.state !== 'running') return 'notStarted';
  return r.ready && !r.draining ? 'ready' : 'started';
}

function podStatus(live: Replica[], templates: number): PodStatus {
  if (live.length === 0) return 'deleting';
  return live.length === templates && live.every((r) => r.ready) ? 'ready' : 'scheduled';
}

/** One pod per replica slot that has a container; draining replicas show a pod being deleted. */
export function runningPods(appId: string, doc: ContainerAppDoc, state: AppRuntimeState, volumes: readonly string[]): RunningPod[] {
  const slots = [...new Set(state.replicas.map((r) => r.slot))].sort((a, b) => a - b);
  return slots.map((slot) => {
    const inSlot = state.replicas.filter((r) => r.slot === slot);
    const live = inSlot.filter((r) => !r.draining);
    const podId = doc.pods[slot]?.id ?? `${appId}-${slot}`;
    const passed = Math.max(0, ...live.map((r) => r.lastPassed ?? 0));
    const containers = doc.containerTemplates.map((t): OverviewContainerT => {
      const replica = live.find((r) => r.templateId === t.id) ?? inSlot.find((r) => r.templateId === t.id);
      const last = replica && [...state.events].reverse().find((e) => e.container === replica.container.name);
      const trouble = last !== undefined && TROUBLE.has(last.reason) && !(replica?.ready ?? false);
      return {
        id: `${podId}-${t.id}`,
        name: t.name,
        cpuUsage: percentOf(replica?.cpu),
        ramUsage: 0,
        reason: trouble ? last.reason : '',
        message: trouble ? last.message : '',
        status: containerStatus(replica),
        image: replica?.container.labels[LABELS.image] ?? t.image,
        imageDisplay: `${t.imageNamespace}/${t.imageName}:${t.imageTag}`,
        numberOfRestarts: replica?.restarts ?? 0,
        exitCode: replica?.container.exitCode ?? null,
      };
    });
    return {
      slot,
      pod: {
        name: podId,
        status: podStatus(live, doc.containerTemplates.length),
        lastHeartBeat: passed > 0 ? new Date(passed).toISOString() : null,
        outboundTrafficChart: null,
        cpuUsage: live.length === 0 ? 0 : percentOf(live.reduce((sum, r) => sum + (r.cpu ?? 0), 0) / live.length),
        ramUsage: 0,
        containers,
        message: state.failure ?? null,
        volumesUtilizationPercentage: Object.fromEntries(volumes.map((v) => [v, 0])),
        ephemeralStorageUsageBytes: null,
        ephemeralStorageLimitBytes: null,
        ephemeralStorageUsageRatio: null,
        outboundConnectionsLimit: null,
        outboundConnectionsRejectedDiff: null,
      },
    };
  });
}
