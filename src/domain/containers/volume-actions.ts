/**
 * What can be done to one persistent volume of an application: rename or grow it, detach it from
 * every container, and delete its instances (all, or one) once no pod uses them (volumes.ts).
 */
import type { PatchVolumeRequestT, UpdateVolumeResponseT } from '../../schemas/containers.js';
import type { StoreTx } from '../../store/types.js';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import type { ContainerAppDoc, StoredVolume } from './types.js';
import type { AppEditor } from './editor.js';
import { inUse, liveInstances, volumeOf, withoutInstances } from './volumes.js';

const withVolume = (doc: ContainerAppDoc, stored: StoredVolume, updated: StoredVolume): ContainerAppDoc => ({
  ...doc,
  volumes: doc.volumes.map((v) => (v === stored ? updated : v)),
});

const NOT_DETACHED = 'A container of the application mounts the volume: detach it (POST …/detach) or undeploy the application first.';

export class VolumeService {
  constructor(private readonly editor: AppEditor) {}

  /** Renames (the mounts follow) or grows a volume; block storage cannot shrink. */
  update(principal: Principal, appId: string, volumeId: string, input: PatchVolumeRequestT): Promise<UpdateVolumeResponseT> {
    return this.editor.change(principal, appId, (doc) => {
      const stored = volumeOf(doc, volumeId);
      const name = input.name ?? stored.name;
      const size = input.size ?? stored.size;
      if (name !== stored.name && doc.volumes.some((v) => v.name === name)) {
        throw errors.validation('name', `The application already has a volume named "${name}".`, 'volume.name_taken');
      }
      if (size < stored.size) throw errors.validation('size', `A volume can grow but not shrink: it has ${stored.size} GB.`, 'volume.shrink');
      const containerTemplates = doc.containerTemplates.map((t) => ({
        ...t,
        volumeMounts: t.volumeMounts.map((m) => (m.name === stored.name ? { ...m, name } : m)),
      }));
      return { doc: { ...withVolume(doc, stored, { ...stored, name, size }), containerTemplates }, result: { name, size } };
    });
  }

  /** Unmounts the volume from every container; the volume and its instances stay, detached. */
  detach(principal: Principal, appId: string, volumeId: string): Promise<{ name: string }> {
    return this.editor.change(principal, appId, (doc) => {
      const stored = volumeOf(doc, volumeId);
      const containerTemplates = doc.containerTemplates.map((t) => ({ ...t, volumeMounts: t.volumeMounts.filter((m) => m.name !== stored.name) }));
      return { doc: { ...doc, containerTemplates }, result: { name: stored.name } };
    });
  }

  /** Deletes every instance of a volume, which must be detached; the volume itself stays. */
  deleteInstances(principal: Principal, appId: string, volumeId: string): Promise<{ ids: string[] }> {
    return this.editor.change(
      principal,
      appId,
      async (doc, tx) => {
        const stored = volumeOf(doc, volumeId);
        const live = liveInstances(doc, stored);
        if (live.length === 0) throw errors.notFound('volume instance');
        await this.refuseInUse(tx, principal, doc, stored);
        return {
          doc: withVolume(
            doc,
            stored,
            withoutInstances(
              stored,
              live.map((i) => i.position),
            ),
          ),
          result: { ids: live.map((i) => i.id) },
        };
      },
      { rollout: false },
    );
  }

  deleteInstance(principal: Principal, appId: string, volumeId: string, instanceId: string): Promise<{ id: string }> {
    return this.editor.change(
      principal,
      appId,
      async (doc, tx) => {
        const stored = volumeOf(doc, volumeId);
        const instance = liveInstances(doc, stored).find((i) => i.id === instanceId);
        if (!instance) throw errors.notFound('volume instance');
        await this.refuseInUse(tx, principal, doc, stored);
        return { doc: withVolume(doc, stored, withoutInstances(stored, [instance.position])), result: { id: instance.id } };
      },
      { rollout: false },
    );
  }

  private async refuseInUse(tx: StoreTx, principal: Principal, doc: ContainerAppDoc, volume: StoredVolume): Promise<void> {
    const state = this.editor.stateOf(doc, await this.editor.funded(tx, principal.accountId));
    if (inUse(doc, volume, state)) throw errors.validation('volumeId', NOT_DETACHED, 'volume.attached');
  }
}
