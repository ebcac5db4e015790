/**
 * The settings of an application that the platform also exposes on their own: region settings,
 * autoscaling bounds, and the list of its volumes.
 */
import type { AutoScalingT, ListVolumesResponseT, RegionSettingsRequestT, RegionSettingsT } from '../../schemas/containers.js';
import type { Principal } from '../principal.js';
import { regionSettingsOf, withPods } from './application.js';
import type { AppEditor } from './editor.js';
import { checkAutoScaling, checkRegions } from './rules.js';
import { relocated } from './templates.js';
import { volumeList } from './volumes.js';

export class AppSettingsService {
  constructor(private readonly editor: AppEditor) {}

  async regionSettings(principal: Principal, appId: string): Promise<RegionSettingsT> {
    return (await this.editor.read(principal.accountId, appId)).stored.doc.regionSettings;
  }

  /** Replaces the region settings (left out = cleared); endpoints get addresses in the new regions. */
  setRegionSettings(principal: Principal, appId: string, input: RegionSettingsRequestT): Promise<void> {
    checkRegions(input, '');
    return this.editor.change(principal, appId, (doc) => {
      const regionSettings = regionSettingsOf(input);
      const containerTemplates = relocated(doc.containerTemplates, this.editor.endpointContext(regionSettings));
      return { doc: { ...doc, regionSettings, containerTemplates }, result: undefined };
    });
  }

  async autoScaling(principal: Principal, appId: string): Promise<AutoScalingT> {
    return (await this.editor.read(principal.accountId, appId)).stored.doc.autoScaling;
  }

  /** New bounds; the application runs `min` pods, adding or removing pods at the end. */
  setAutoScaling(principal: Principal, appId: string, input: AutoScalingT): Promise<void> {
    checkAutoScaling(input, '');
    return this.editor.change(principal, appId, (doc) => ({
      doc: { ...doc, autoScaling: { min: input.min, max: input.max }, pods: withPods(doc.containerTemplates, input.min, doc.pods) },
      result: undefined,
    }));
  }

  async volumes(principal: Principal, appId: string): Promise<ListVolumesResponseT> {
    const { stored, state } = await this.editor.read(principal.accountId, appId);
    return volumeList(stored.doc, state);
  }
}
