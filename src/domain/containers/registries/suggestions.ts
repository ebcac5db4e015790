/**
 * A starting configuration read from an image's own configuration: the ports it exposes become
 * endpoints, the paths it declares as volumes become volumes, the variables it sets become
 * environment variables, and its OCI labels name and describe it.
 */
import type { EndpointRequestT } from '../../../schemas/containers.js';
import type { ContainerConfigSuggestionsT, ImageConfigT, VolumeSuggestionT } from '../../../schemas/container-registries.js';
import type { ImageRunConfig } from './oci-client.js';

/** Variables every runtime sets for itself: suggesting them would only invite breaking them. */
const RUNTIME_VARIABLES = new Set(['PATH', 'HOME']);

/**
 * `"8080/tcp"` → a CDN endpoint (the delivery network forwards HTTP over TCP); `"53/udp"` and
 * SCTP ports → an anycast endpoint. Ports in number order; a port without protocol is TCP.
 */
function endpointSuggestions(exposed: Record<string, unknown> | undefined): EndpointRequestT[] {
  const ports = Object.keys(exposed ?? {})
    .map((key) => {
      const [number, protocol = 'tcp'] = key.toLowerCase().split('/');
      return { port: Number(number), protocol };
    })
    .filter((p) => Number.isInteger(p.port) && p.port >= 1 && p.port <= 65535 && ['tcp', 'udp', 'sctp'].includes(p.protocol))
    .sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol));
  return ports.map(({ port, protocol }) => {
    const displayName = `${protocol}-${port}`;
    const portMappings = [{ containerPort: port, protocols: [protocol as 'tcp' | 'udp' | 'sctp'] }];
    return protocol === 'tcp' ? { displayName, cdn: { isSslEnabled: true, portMappings } } : { displayName, anycast: { type: 'iPv4' as const, portMappings } };
  });
}

/** `/var/lib/data` → `var-lib-data`; names stay unique and within the 50 characters a volume name may have. */
function volumeSuggestions(volumes: Record<string, unknown> | undefined): VolumeSuggestionT[] {
  const taken = new Set<string>();
  return Object.keys(volumes ?? {})
    .sort()
    .map((containerPath) => {
      const base =
        containerPath
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-+|-+$/g, '')
          .slice(0, 40)
          .replace(/-+$/, '') || 'data';
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
      taken.add(name);
      return { containerPath, suggestedVolumeName: name };
    });
}

export function imageConfigSuggestions(config: ImageRunConfig): ImageConfigT {
  return { endpointSuggestions: endpointSuggestions(config.ExposedPorts), volumeSuggestions: volumeSuggestions(config.Volumes) };
}

export function containerSuggestions(config: ImageRunConfig, imageName: string, registryUrl: string): ContainerConfigSuggestionsT {
  const labels = config.Labels ?? {};
  const documentation = labels['org.opencontainers.image.documentation'];
  return {
    ...imageConfigSuggestions(config),
    environmentVariablesSuggestions: (config.Env ?? []).flatMap((entry) => {
      const at = entry.indexOf('=');
      const name = at < 0 ? entry : entry.slice(0, at);
      if (name.length === 0 || RUNTIME_VARIABLES.has(name)) return [];
      return [{ name, defaultValue: at < 0 ? null : entry.slice(at + 1), description: null, required: false }];
    }),
    appName: labels['org.opencontainers.image.title'] || imageName,
    description: labels['org.opencontainers.image.description'] || null,
    instructions: documentation ? `The image is documented at ${documentation}.` : null,
    registryUrl,
  };
}
