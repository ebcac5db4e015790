/**
 * What runs for an application, from its document: each template's containers (name, labels,
 * image, environment, command, published ports, bounds, volumes) and the revision that decides
 * when a running container is rolled. Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import type { ContainerProbeT, ContainerTemplateT } from '../../../schemas/containers.js';
import type { ContainerAppDoc } from '../types.js';
import { LABELS, type ContainerSpec } from './types.js';

/** The bounds of each runtime type: shared capacity, or capacity reserved for the application. */
export const RESOURCE_BOUNDS = {
  shared: { memoryMb: 256, cpus: 0.5, pids: 256 },
  reserved: { memoryMb: 1024, cpus: 1, pids: 1024 },
} as const satisfies Record<ContainerAppDoc['runtimeType'], { memoryMb: number; cpus: number; pids: number }>;

/** Seconds a container gets to stop after SIGTERM when the application names none (Kubernetes' default). */
export const DEFAULT_GRACE_SECONDS = 30;

export const networkName = (appId: string) => `ep-${appId}`;
export const volumeName = (appId: string, name: string, replica: number) => `ep-${appId}-${name.toLowerCase().replace(/[^a-z0-9_.-]/g, '-')}-${replica}`;

/** The port a probe checks: its own, else the template's first endpoint port. */
export function probePort(probe: ContainerProbeT, template: ContainerTemplateT): number | undefined {
  return probe.httpGet?.request?.portNumber ?? probe.tcpSocket?.request?.portNumber ?? probe.grpc?.request?.portNumber ?? firstPort(template);
}

export const firstPort = (template: ContainerTemplateT): number | undefined => template.endpoints[0]?.portMappings[0]?.containerPort;

/** Every container port the host must reach: endpoints' and probes'. */
export function publishedPorts(template: ContainerTemplateT): number[] {
  const ports = new Set<number>();
  for (const e of template.endpoints) for (const m of e.portMappings) ports.add(m.containerPort);
  for (const probe of Object.values(template.probes)) {
    const port = probe && probePort(probe, template);
    if (port !== undefined) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

/** The full reference podman pulls: the registry's host before the image's own name. */
export const pullReference = (host: string | null, template: ContainerTemplateT) => (host ? `${host}/${template.image}` : template.image);

/** Everything about a template and its application that the running container is made from. */
export function revisionOf(doc: ContainerAppDoc, template: ContainerTemplateT): string {
  const made = {
    image: template.image,
    registry: template.imageRegistryId,
    entryPoint: template.entryPoint,
    env: template.environmentVariables,
    probes: template.probes,
    mounts: template.volumeMounts,
    ports: publishedPorts(template),
    runtimeType: doc.runtimeType,
    volumes: doc.volumes.map((v) => v.name),
  };
  return createHash('sha256').update(JSON.stringify(made)).digest('hex').slice(0, 12);
}

/** Command text split into words, honouring simple quotes: what a shell would pass as argv. */
export function words(text: string | null): string[] | null {
  if (text === null || text.trim() === '') return null;
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

export function containerSpec(input: {
  accountId: number;
  appId: string;
  doc: ContainerAppDoc;
  template: ContainerTemplateT;
  replica: number;
  image: string;
}): ContainerSpec {
  const { accountId, appId, doc, template, replica, image } = input;
  const revision = revisionOf(doc, template);
  const entry = template.entryPoint;
  const entrypoint = entry?.commandArray?.length ? entry.commandArray : words(entry?.command ?? null);
  const args = entry?.argumentsArray?.length ? entry.argumentsArray : words(entry?.arguments ?? null);
  const bounds = RESOURCE_BOUNDS[doc.runtimeType];
  return {
    name: `ep-${appId}-${template.id}-${replica}-${revision.slice(0, 8)}`,
    image,
    labels: {
      [LABELS.app]: appId,
      [LABELS.account]: String(accountId),
      [LABELS.template]: template.id,
      [LABELS.revision]: revision,
      [LABELS.replica]: String(replica),
      [LABELS.image]: image,
    },
    env: Object.fromEntries(template.environmentVariables.map((v) => [v.name, v.value ?? ''])),
    entrypoint,
    args,
    workingDirectory: entry?.workingDirectory ?? null,
    network: networkName(appId),
    ports: publishedPorts(template),
    ...bounds,
    volumes: template.volumeMounts.map((m) => ({ name: volumeName(appId, m.name, replica), mountPath: m.mountPath })),
    aliases: [template.name.toLowerCase().replace(/[^a-z0-9-]/g, '-')],
  };
}
