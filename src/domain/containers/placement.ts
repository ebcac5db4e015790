/** Where an application's pods run: its regions, and the region of each pod. */
import type { RegionSettingsT } from '../../schemas/containers.js';
import { DEFAULT_REGION } from './network.js';
import type { ContainerAppDoc } from './types.js';

const unique = (values: readonly string[] | null | undefined) => [...new Set(values ?? [])];

/** The regions the application is placed in: the required ones, then allowed ones up to the limit. */
export function regionsOf(settings: RegionSettingsT): string[] {
  const all = unique([...settings.requiredRegionIds, ...settings.allowedRegionIds]);
  const limit = Math.max(settings.maxAllowedRegions ?? all.length, settings.requiredRegionIds.length);
  const placed = all.slice(0, limit);
  return placed.length > 0 ? placed : [DEFAULT_REGION];
}

/** The region each pod runs in: pods are spread over the application's regions in turn. */
export function podRegions(doc: Pick<ContainerAppDoc, 'pods' | 'regionSettings'>): string[] {
  const regions = regionsOf(doc.regionSettings);
  return doc.pods.map((_pod, i) => regions[i % regions.length] ?? DEFAULT_REGION);
}
