/**
 * Container templates and their endpoints as stored and returned: request fields with the
 * platform's defaults filled in, plus generated ids, hosts and addresses. A template or endpoint
 * rebuilt from a new request keeps the generated values of its previous version. Pure apart from
 * randomness: no I/O, no framework.
 */
import {
  DEFAULT_STICKY_COOKIE,
  PROBE_DEFAULTS,
  type ContainerEndpointResponseT,
  type ContainerProbeT,
  type ContainerProbesT,
  type ContainerTemplateRequestT,
  type ContainerTemplateT,
  type EndpointRequestT,
  type EndpointType,
  type PortMappingRequestT,
} from '../../schemas/containers.js';
import { newContainerId } from './ids.js';
import { anycastAddresses, internalAddresses, publicAddresses, publicHostFor } from './network.js';

/** What building an endpoint needs to know about its application and the platform. */
export interface EndpointContext {
  /** Domain of generated public hosts (configuration). */
  domain: string;
  /** Regions the application runs in; each gets addresses. */
  regions: readonly string[];
  /** The address anycast endpoints really listen on (containers run: EDGEPLANE_CONTAINER_ANYCAST_ADDRESS); undefined: one is drawn. */
  anycastAddress?: string | undefined;
}

const DEFAULT_PROTOCOLS = ['tcp'] as const;

export const endpointTypeOf = (e: Pick<EndpointRequestT, 'anycast'>): EndpointType => (e.anycast ? 'anycast' : 'cdn');

function portMappings(input: readonly PortMappingRequestT[] | undefined) {
  return (input ?? []).map((m) => ({
    containerPort: m.containerPort,
    exposedPort: m.exposedPort ?? m.containerPort,
    protocols: m.protocols ? [...new Set(m.protocols)] : [...DEFAULT_PROTOCOLS],
  }));
}

/**
 * Builds an endpoint from its request. The caller has already checked that exactly one of `cdn`
 * and `anycast` is given. The id and public host survive renames (clients have the host in their
 * DNS and configuration); addresses survive while their region and the endpoint's kind do.
 */
export function buildEndpoint(input: EndpointRequestT, previous: ContainerEndpointResponseT | undefined, ctx: EndpointContext): ContainerEndpointResponseT {
  const type = endpointTypeOf(input);
  const id = previous?.id ?? newContainerId();
  const sameKind = previous?.type === type;
  const sticky = input.cdn?.stickySessions;
  return {
    id,
    displayName: input.displayName,
    publicHost: previous?.publicHost ?? publicHostFor(input.displayName, id, ctx.domain),
    type,
    isSslEnabled: input.cdn?.isSslEnabled ?? false,
    pullZoneId: input.cdn?.pullZoneId != null ? String(input.cdn.pullZoneId) : null,
    portMappings: portMappings(input.cdn?.portMappings ?? input.anycast?.portMappings),
    // Sending the settings is taken as asking for sticky sessions unless `enabled` says otherwise;
    // an endpoint given none shows none (the platform's model has no empty form of them).
    stickySessions: sticky
      ? { enabled: sticky.enabled ?? true, sessionHeaders: [...sticky.sessionHeaders], cookieName: sticky.cookieName || DEFAULT_STICKY_COOKIE }
      : undefined,
    internalIpAddresses: internalAddresses(ctx.regions, previous?.internalIpAddresses),
    publicIpAddresses:
      type === 'anycast'
        ? anycastAddresses(ctx.regions, sameKind ? previous?.publicIpAddresses : null, ctx.anycastAddress)
        : publicAddresses(ctx.regions, sameKind ? previous?.publicIpAddresses : null),
  };
}

function withProbeDefaults(probe: ContainerProbeT): ContainerProbeT {
  return {
    ...probe,
    initialDelaySeconds: probe.initialDelaySeconds ?? PROBE_DEFAULTS.initialDelaySeconds,
    periodSeconds: probe.periodSeconds ?? PROBE_DEFAULTS.periodSeconds,
    timeoutSeconds: probe.timeoutSeconds ?? PROBE_DEFAULTS.timeoutSeconds,
    failureThreshold: probe.failureThreshold ?? PROBE_DEFAULTS.failureThreshold,
    successThreshold: probe.successThreshold ?? PROBE_DEFAULTS.successThreshold,
  };
}

function probes(input: ContainerProbesT | undefined): ContainerProbesT {
  const out: ContainerProbesT = {};
  for (const kind of ['startup', 'readiness', 'liveness'] as const) {
    const probe = input?.[kind];
    if (probe) out[kind] = withProbeDefaults(probe);
  }
  return out;
}

/** The full image reference: the one sent, else `namespace/name:tag`, pinned with `@digest` when given. */
export function imageReference(input: Pick<ContainerTemplateRequestT, 'image' | 'imageNamespace' | 'imageName' | 'imageTag' | 'imageDigest'>): string {
  if (input.image) return input.image;
  const base = `${input.imageNamespace}/${input.imageName}:${input.imageTag}`;
  return input.imageDigest ? `${base}@${input.imageDigest}` : base;
}

/**
 * Kubernetes' rule, which the platform's runtime follows: a floating `latest` tag is pulled on
 * every start, any other tag only when the node lacks it.
 */
const defaultPullPolicy = (tag: string) => (tag === 'latest' ? 'always' : 'ifNotPresent');

/**
 * Builds a template from its request. `previous` is the stored template the request updates, if
 * any: its id stays, its package id stays while the image does, and each endpoint whose display
 * name is unchanged keeps its generated values.
 */
export function buildTemplate(input: ContainerTemplateRequestT, previous: ContainerTemplateT | undefined, ctx: EndpointContext): ContainerTemplateT {
  const image = imageReference(input);
  const samePackage = previous !== undefined && previous.image === image && previous.imageRegistryId === input.imageRegistryId;
  const entry = input.entryPoint;
  return {
    id: previous?.id ?? newContainerId(),
    name: input.name,
    packageId: samePackage ? previous.packageId : newContainerId(),
    image,
    imageName: input.imageName,
    imageNamespace: input.imageNamespace,
    imageTag: input.imageTag,
    imageRegistryId: input.imageRegistryId,
    imageDigest: input.imageDigest ?? null,
    imagePullPolicy: input.imagePullPolicy ?? defaultPullPolicy(input.imageTag),
    entryPoint: {
      command: entry?.command ?? null,
      commandArray: entry?.commandArray ?? [],
      arguments: entry?.arguments ?? null,
      argumentsArray: entry?.argumentsArray ?? [],
      workingDirectory: entry?.workingDirectory ?? null,
    },
    probes: probes(input.probes),
    environmentVariables: (input.environmentVariables ?? []).map((v) => ({ name: v.name, value: v.value ?? '' })),
    endpoints: (input.endpoints ?? []).map((e) =>
      buildEndpoint(
        e,
        previous?.endpoints.find((p) => p.displayName === e.displayName),
        ctx,
      ),
    ),
    volumeMounts: (input.volumeMounts ?? []).map((m) => ({ name: m.name, mountPath: m.mountPath })),
  };
}

/**
 * The same containers placed in new regions: each endpoint gets addresses in exactly those
 * regions, keeping the ones it already had there.
 */
export function relocated(templates: readonly ContainerTemplateT[], ctx: EndpointContext): ContainerTemplateT[] {
  return templates.map((t) => ({
    ...t,
    endpoints: t.endpoints.map((e) => ({
      ...e,
      internalIpAddresses: internalAddresses(ctx.regions, e.internalIpAddresses),
      publicIpAddresses:
        e.type === 'anycast' ? anycastAddresses(ctx.regions, e.publicIpAddresses, ctx.anycastAddress) : publicAddresses(ctx.regions, e.publicIpAddresses),
    })),
  }));
}
