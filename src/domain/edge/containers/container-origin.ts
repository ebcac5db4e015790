/**
 * The origin of a zone in front of a container endpoint (OriginType ManagedContainers): one of the
 * endpoint's ready replicas, picked per request by the container runtime (balanced, or sticky by
 * the session's cookie or header), reached over the loopback address its port is published on.
 */
import type { OriginChoice } from '../origin/choice.js';

/** What the edge asks of the container runtime (domain/containers/runtime/app-runtime.ts). */
export interface ContainerOrigins {
  pick(endpointId: string, headers: Record<string, string | string[] | undefined>): { host: string; port: number } | undefined;
}

/** Each replica's URL, made once (a URL parse per request is measurable on the edge's busiest path). */
const urls = new Map<string, URL>();
const MAX_URLS = 10_000;

function urlOf(host: string, port: number): URL {
  const key = `${host}:${port}`;
  let url = urls.get(key);
  if (!url) {
    if (urls.size >= MAX_URLS) urls.clear();
    url = new URL(`http://${key}`);
    urls.set(key, url);
  }
  return url;
}

export function containerOrigin(
  origins: ContainerOrigins | undefined,
  endpointId: string,
  headers: Record<string, string | string[] | undefined>,
): Extract<OriginChoice, { kind: 'url' | 'unavailable' }> {
  const backend = origins?.pick(endpointId, headers);
  if (!backend) return { kind: 'unavailable', reason: `No container of endpoint ${endpointId} is ready to answer.` };
  return { kind: 'url', url: urlOf(backend.host, backend.port) };
}
