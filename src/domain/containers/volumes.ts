/**
 * The volume list of an application. Each pod gets its own instance of every volume (the way
 * stateful workloads claim storage), named by the pod's position so that it survives restarts,
 * which replace pods. The emulator stores nothing in them, so usage is always 0.
 */
import type { ListVolumesResponseT, VolumeInListT } from '../../schemas/containers.js';
import { regionsOf, type ContainerAppDoc } from './application.js';
import type { AppState } from './lifecycle.js';
import { DEFAULT_REGION } from './network.js';

export function volumeList(doc: ContainerAppDoc, state: AppState): ListVolumesResponseT {
  const regions = regionsOf(doc.regionSettings);
  const attached = state.running;
  const items = doc.volumes.map((volume): VolumeInListT => {
    const mounting = doc.containerTemplates.filter((t) => t.volumeMounts.some((m) => m.name === volume.name));
    const volumeInstances = doc.pods.map((pod, i) => ({
      id: `${volume.id}-${i}`,
      attachedPods: attached ? [pod.id] : [],
      attachedContainers: attached ? mounting.map((t) => `${pod.id}-${t.id}`) : [],
      // Pods are spread over the application's regions in turn.
      region: regions[i % regions.length] ?? DEFAULT_REGION,
      status: attached ? ('attached' as const) : ('detached' as const),
      size: volume.size,
      usage: 0,
      set: volume.id,
    }));
    return {
      name: volume.name,
      id: volume.id,
      size: volume.size,
      totalUsage: 0,
      totalInstancesCount: volumeInstances.length,
      attachedInstancesCount: attached ? volumeInstances.length : 0,
      containersCount: mounting.length,
      volumeInstances,
    };
  });
  const runningPods = attached ? doc.pods.length : 0;
  return {
    items,
    meta: { totalItems: items.length },
    cursor: null,
    summary: {
      totalPods: runningPods,
      totalContainers: runningPods * doc.containerTemplates.length,
      totalStorage: items.reduce((sum, v) => sum + v.size * v.totalInstancesCount, 0),
    },
  };
}
