/**
 * The persistent volumes of an application and their instances. Each pod position gets its own
 * instance of every volume (the way stateful workloads claim storage), named by the position so
 * that it survives restarts and recreated pods, which replace pods in place. The emulator stores
 * nothing in them, so usage is always 0.
 *
 * An instance is attached while a running pod's container mounts its volume. One that is not may
 * be deleted; the position then has none until a pod needs one again — once a container of a
 * deployed application mounts the volume — and gets a new, empty instance with a new id.
 */
import type { ListVolumesResponseT, VolumeInListT } from '../../schemas/containers.js';
import { errors } from '../errors.js';
import { newContainerId } from './ids.js';
import { podRegions } from './placement.js';
import type { ContainerAppDoc, StoredVolume } from './types.js';
import type { AppState } from './lifecycle.js';

/** The instance at a pod position, or null when it was deleted. */
export function instanceAt(volume: StoredVolume, position: number): string | null {
  const recorded = volume.instances?.[String(position)];
  return recorded === undefined ? `${volume.id}-${position}` : recorded;
}

/** The live instances of the pod positions the application has, with their positions. */
export function liveInstances(doc: ContainerAppDoc, volume: StoredVolume): { id: string; position: number }[] {
  return doc.pods.flatMap((_pod, position) => {
    const id = instanceAt(volume, position);
    return id === null ? [] : [{ id, position }];
  });
}

export const mountingContainers = (doc: ContainerAppDoc, name: string) => doc.containerTemplates.filter((t) => t.volumeMounts.some((m) => m.name === name));

/** Whether pods use the volume's instances now. */
export const isAttached = (doc: ContainerAppDoc, volume: StoredVolume, state: AppState) => state.running && mountingContainers(doc, volume.name).length > 0;

/** Whether an instance could be deleted under a pod: attached now, or about to be (mounted by a deployed application). */
export const inUse = (doc: ContainerAppDoc, volume: StoredVolume, state: AppState) =>
  mountingContainers(doc, volume.name).length > 0 && (state.running || doc.lifecycle.deployed);

/** The volume named by `idOrName` (its id, else its name). */
export function volumeOf(doc: ContainerAppDoc, idOrName: string): StoredVolume {
  const found = doc.volumes.find((v) => v.id === idOrName) ?? doc.volumes.find((v) => v.name === idOrName);
  if (!found) throw errors.notFound('volume');
  return found;
}

/** The volume with the instance at each of `positions` deleted. */
export function withoutInstances(volume: StoredVolume, positions: readonly number[]): StoredVolume {
  const instances = { ...volume.instances };
  for (const p of positions) instances[String(p)] = null;
  return { ...volume, instances };
}

/** Deleted instances come back, new and empty, where a pod needs them: a container of a deployed application mounts the volume. */
export function withProvisionedInstances(doc: ContainerAppDoc): ContainerAppDoc {
  if (!doc.lifecycle.deployed) return doc;
  let changed = false;
  const volumes = doc.volumes.map((volume) => {
    if (!volume.instances || mountingContainers(doc, volume.name).length === 0) return volume;
    const instances = { ...volume.instances };
    for (let position = 0; position < doc.pods.length; position++) {
      if (instances[String(position)] !== null) continue;
      instances[String(position)] = `${volume.id}-${newContainerId().slice(0, 6)}`;
      changed = true;
    }
    return { ...volume, instances };
  });
  return changed ? { ...doc, volumes } : doc;
}

/** GB reserved per volume name: its size times its live instances. */
export function reservedPerVolume(doc: ContainerAppDoc): Record<string, number> {
  return Object.fromEntries(doc.volumes.map((v) => [v.name, v.size * liveInstances(doc, v).length]));
}

export const totalReserved = (doc: ContainerAppDoc) => Object.values(reservedPerVolume(doc)).reduce((sum, gb) => sum + gb, 0);

export function volumeList(doc: ContainerAppDoc, state: AppState): ListVolumesResponseT {
  const regions = podRegions(doc);
  const items = doc.volumes.map((volume): VolumeInListT => {
    const mounting = mountingContainers(doc, volume.name);
    const attached = isAttached(doc, volume, state);
    const volumeInstances = liveInstances(doc, volume).map(({ id, position }) => {
      const pod = doc.pods[position]!;
      return {
        id,
        attachedPods: attached ? [pod.id] : [],
        attachedContainers: attached ? mounting.map((t) => `${pod.id}-${t.id}`) : [],
        region: regions[position]!,
        status: attached ? ('attached' as const) : ('detached' as const),
        size: volume.size,
        usage: 0,
        set: volume.id,
      };
    });
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
  const runningPods = state.running ? doc.pods.length : 0;
  return {
    items,
    meta: { totalItems: items.length },
    cursor: null,
    summary: {
      totalPods: runningPods,
      totalContainers: runningPods * doc.containerTemplates.length,
      totalStorage: totalReserved(doc),
    },
  };
}
