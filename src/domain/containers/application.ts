/**
 * The stored form of a container application and the view the API returns. The document keeps the
 * configuration plus the values generated for it (ids, hosts, addresses, pods); status, display
 * endpoint and instances are derived on every read so they can never disagree with it.
 */
import type {
  ApplicationCreateRequestT,
  ApplicationT,
  ContainerTemplateT,
  RegionSettingsRequestT,
  RegionSettingsT,
} from '../../http/schemas/containers.js';
import { newContainerId } from './ids.js';
import { DEFAULT_REGION, nodeAddress } from './network.js';

export interface Pod {
  id: string;
  nodeIpAddress: string;
}

export interface ContainerAppDoc {
  name: string;
  runtimeType: ApplicationT['runtimeType'];
  autoScaling: ApplicationT['autoScaling'];
  regionSettings: RegionSettingsT;
  terminationGracePeriodSeconds: number | null;
  repositorySettings: ApplicationT['repositorySettings'];
  volumes: ApplicationT['volumes'];
  containerTemplates: ContainerTemplateT[];
  /** Groups of running containers, one per instance of the application (`autoScaling.min`). */
  pods: Pod[];
}

/** The application's settings as sent (create or replace), before its containers. */
export type ApplicationSettingsInput = Omit<ApplicationCreateRequestT, 'containerTemplates'>;

/** The network limits every application gets; the API offers no way to change them. */
export const NETWORK_LIMITS = { ingressBandwidthLimit: 1_000_000_000, egressBandwidthLimit: 1_000_000_000 } as const;

const unique = (values: readonly string[] | null | undefined) => [...new Set(values ?? [])];

/**
 * Region settings as returned. With no region limit the application runs in exactly the listed
 * regions (`static`); with `maxAllowedRegions` the platform picks regions by demand (`dynamic`).
 */
export function regionSettingsOf(input: RegionSettingsRequestT): RegionSettingsT {
  const maxAllowedRegions = input.maxAllowedRegions ?? null;
  return {
    allowedRegionIds: unique(input.allowedRegionIds),
    requiredRegionIds: unique(input.requiredRegionIds),
    maxAllowedRegions,
    provisioningType: maxAllowedRegions === null ? 'static' : 'dynamic',
    nodeSelectors: input.nodeSelectors ?? null,
  };
}

/** The regions the application is placed in: the required ones, then allowed ones up to the limit. */
export function regionsOf(settings: RegionSettingsT): string[] {
  const all = unique([...settings.requiredRegionIds, ...settings.allowedRegionIds]);
  const limit = Math.max(settings.maxAllowedRegions ?? all.length, settings.requiredRegionIds.length);
  const placed = all.slice(0, limit);
  return placed.length > 0 ? placed : [DEFAULT_REGION];
}

function podsFor(count: number, previous: readonly Pod[]): Pod[] {
  const pods = previous.slice(0, count);
  while (pods.length < count) {
    pods.push({ id: newContainerId(), nodeIpAddress: nodeAddress() });
  }
  return pods;
}

/** Builds (or rebuilds, keeping generated pods) the document from settings and built containers. */
export function applicationDoc(input: ApplicationSettingsInput, containerTemplates: ContainerTemplateT[], previous?: ContainerAppDoc): ContainerAppDoc {
  return {
    name: input.name,
    runtimeType: input.runtimeType,
    autoScaling: { min: input.autoScaling.min, max: input.autoScaling.max },
    regionSettings: regionSettingsOf(input.regionSettings),
    terminationGracePeriodSeconds: input.terminationGracePeriodSeconds ?? null,
    repositorySettings: input.repositorySettings
      ? {
          templateRepository: input.repositorySettings.templateRepository ?? null,
          repositoryName: input.repositorySettings.repositoryName ?? null,
          owner: input.repositorySettings.owner ?? null,
        }
      : null,
    volumes: (input.volumes ?? []).map((v) => ({ name: v.name, size: v.size })),
    containerTemplates,
    pods: withPods(containerTemplates, input.autoScaling.min, previous?.pods ?? []),
  };
}

/** An application without containers runs nothing. */
export const withPods = (templates: readonly ContainerTemplateT[], min: number, previous: readonly Pod[]) =>
  templates.length === 0 ? [] : podsFor(min, previous);

export function applicationView(id: string, doc: ContainerAppDoc): ApplicationT {
  const endpoints = doc.containerTemplates.flatMap((t) => t.endpoints);
  const shown = endpoints.find((e) => e.type === 'cdn') ?? endpoints[0];
  return {
    id,
    name: doc.name,
    displayEndpoint: shown ? { id: shown.id, address: shown.publicHost, type: shown.type } : null,
    status: doc.containerTemplates.length > 0 ? 'active' : 'inactive',
    runtimeType: doc.runtimeType,
    regionSettings: doc.regionSettings,
    containerTemplates: doc.containerTemplates,
    containerInstances: doc.pods.flatMap((pod) =>
      doc.containerTemplates.map((t) => ({ id: `${pod.id}-${t.id}`, templateId: t.id, podId: pod.id, nodeIpAddress: pod.nodeIpAddress })),
    ),
    volumes: doc.volumes,
    autoScaling: doc.autoScaling,
    networkSettings: { ...NETWORK_LIMITS },
    repositorySettings: doc.repositorySettings,
    terminationGracePeriodSeconds: doc.terminationGracePeriodSeconds,
  };
}
