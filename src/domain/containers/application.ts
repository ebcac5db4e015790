/**
 * The stored form of a container application and the view the API returns. The document keeps the
 * configuration plus the values generated for it (ids, hosts, addresses, pods) and its lifecycle;
 * status, display endpoint and instances are derived on every read so they can never disagree
 * with it.
 */
import type {
  AppListItemT,
  ApplicationCreateRequestT,
  ApplicationT,
  ContainerTemplateT,
  RegionSettingsRequestT,
  RegionSettingsT,
} from '../../schemas/containers.js';
import { containerRegion } from '../reference-data/container-regions.js';
import { newContainerId } from './ids.js';
import type { AppState, Lifecycle } from './lifecycle.js';
import { nodeAddress } from './network.js';
import type { ContainerAppDoc, Pod, StoredVolume } from './types.js';

/** The application's settings as sent (create or replace), before its containers. */
export type ApplicationSettingsInput = Omit<ApplicationCreateRequestT, 'containerTemplates'>;

/** The network limits every application gets; the API offers no way to change them. */
export const NETWORK_LIMITS = { ingressBandwidthLimit: 1_000_000_000, egressBandwidthLimit: 1_000_000_000 } as const;

const unique = (values: readonly string[] | null | undefined) => [...new Set(values ?? [])];
/** Region codes as the region list spells them (a code it does not know is kept as sent; rules.ts refuses those). */
const regionCodes = (values: readonly string[] | null | undefined) => unique((values ?? []).map((id) => containerRegion(id)?.id ?? id));

/**
 * Region settings as returned. With no region limit the application runs in exactly the listed
 * regions (`static`); with `maxAllowedRegions` the platform picks regions by demand (`dynamic`).
 */
export function regionSettingsOf(input: RegionSettingsRequestT): RegionSettingsT {
  const maxAllowedRegions = input.maxAllowedRegions ?? null;
  return {
    allowedRegionIds: regionCodes(input.allowedRegionIds),
    requiredRegionIds: regionCodes(input.requiredRegionIds),
    maxAllowedRegions,
    provisioningType: maxAllowedRegions === null ? 'static' : 'dynamic',
    nodeSelectors: input.nodeSelectors ?? null,
  };
}

/** A pod placed on a node: new id, new node. */
export const newPod = (): Pod => ({ id: newContainerId(), nodeIpAddress: nodeAddress() });

function podsFor(count: number, previous: readonly Pod[]): Pod[] {
  const pods = previous.slice(0, count);
  while (pods.length < count) pods.push(newPod());
  return pods;
}

/** Volumes as sent; a volume whose name was stored before keeps its id and its instances. */
export function volumesOf(input: readonly { name: string; size: number }[] | null | undefined, previous: readonly StoredVolume[] = []): StoredVolume[] {
  return (input ?? []).map((v) => {
    const kept = previous.find((p) => p.name === v.name);
    const volume: StoredVolume = { id: kept?.id ?? newContainerId(), name: v.name, size: v.size };
    if (kept?.instances) volume.instances = kept.instances;
    return volume;
  });
}

/**
 * Builds (or rebuilds, keeping generated pods and volume ids) the document from settings and built
 * containers. The lifecycle is carried over; the caller decides what the change means for it.
 */
export function applicationDoc(
  input: ApplicationSettingsInput,
  containerTemplates: ContainerTemplateT[],
  lifecycle: Lifecycle,
  previous?: ContainerAppDoc,
): ContainerAppDoc {
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
    volumes: volumesOf(input.volumes, previous?.volumes),
    containerTemplates,
    pods: withPods(containerTemplates, input.autoScaling.min, previous?.pods ?? []),
    lifecycle,
    ...(previous?.timeline ? { timeline: previous.timeline } : {}),
  };
}

/** An application without containers runs nothing. */
export const withPods = (templates: readonly ContainerTemplateT[], min: number, previous: readonly Pod[]) =>
  templates.length === 0 ? [] : podsFor(min, previous);

/** The endpoint shown as the application's address: its first CDN endpoint, else its first one, else none. */
function displayEndpointOf(doc: ContainerAppDoc): ApplicationT['displayEndpoint'] {
  const endpoints = doc.containerTemplates.flatMap((t) => t.endpoints);
  const shown = endpoints.find((e) => e.type === 'cdn') ?? endpoints[0];
  return shown && { id: shown.id, address: shown.publicHost, type: shown.type };
}

export function applicationView(id: string, doc: ContainerAppDoc, state: AppState): ApplicationT {
  const pods = state.running ? doc.pods : [];
  return {
    id,
    name: doc.name,
    displayEndpoint: displayEndpointOf(doc),
    status: state.status,
    runtimeType: doc.runtimeType,
    regionSettings: doc.regionSettings,
    containerTemplates: doc.containerTemplates,
    containerInstances: pods.flatMap((pod) =>
      doc.containerTemplates.map((t) => ({ id: `${pod.id}-${t.id}`, templateId: t.id, podId: pod.id, nodeIpAddress: pod.nodeIpAddress })),
    ),
    volumes: doc.volumes.map((v) => ({ name: v.name, size: v.size })),
    autoScaling: doc.autoScaling,
    networkSettings: { ...NETWORK_LIMITS },
    // The platform's model has no null form: an application without a repository leaves it out.
    repositorySettings: doc.repositorySettings ?? undefined,
    terminationGracePeriodSeconds: doc.terminationGracePeriodSeconds,
  };
}

export const applicationListItem = (id: string, doc: ContainerAppDoc, state: AppState): AppListItemT => ({
  id,
  name: doc.name,
  description: '',
  displayEndpoint: displayEndpointOf(doc),
  status: state.status,
});
