/**
 * Where a zone's answers come from.
 * - A storage zone (`OriginType` StorageZone, or a `StorageZoneId`): its files are read through the
 *   storage domain, with no HTTP hop.
 * - A container endpoint (`OriginType` ManagedContainers): its ready replicas, when containers run
 *   (edge/containers/container-origin.ts); with the simulation none is ever ready, and the zone
 *   answers 502 with a page saying so. A zone that merely records a link to an endpoint
 *   (`ManagedContainersEndpointId`) but pulls from a URL keeps pulling from that URL.
 * - Otherwise the `OriginUrl` (http or https; its path, if any, prefixes every request path).
 * - A standalone edge script (`OriginType` EdgeScript with its `EdgeScriptId`): the script answers.
 *   Load balancers and push zones have no engine here: with an OriginUrl they pull
 *   from it, without one they answer 502 naming why.
 */
import type { EdgeZone } from '../types.js';

export type OriginChoice =
  | { kind: 'url'; url: URL }
  | { kind: 'storage'; storageZoneId: number }
  /** A standalone edge script answers the zone's requests (OriginType EdgeScript with an EdgeScriptId; domain/edge/scripts/). */
  | { kind: 'script'; scriptId: number }
  | { kind: 'containers'; endpointId: string }
  | { kind: 'unavailable'; reason: string };

const ORIGIN_TYPE_NAMES: Record<number, string> = { 3: 'a load balancer', 4: 'an edge script', 6: 'a push zone' };

export function originOf(zone: EdgeZone): OriginChoice {
  if (zone.OriginType === 2 || (zone.StorageZoneId > 0 && zone.OriginType !== 5)) {
    if (zone.StorageZoneId > 0) return { kind: 'storage', storageZoneId: zone.StorageZoneId };
    return { kind: 'unavailable', reason: 'The zone pulls from a storage zone, but none is linked to it.' };
  }
  if (zone.OriginType === 5) {
    if (zone.ManagedContainersEndpointId) return { kind: 'containers', endpointId: zone.ManagedContainersEndpointId };
    return { kind: 'unavailable', reason: "The zone's origin is a container endpoint, but no endpoint is linked to it." };
  }
  if (zone.OriginType === 4 && zone.EdgeScriptId > 0) return { kind: 'script', scriptId: zone.EdgeScriptId };
  const url = httpUrl(zone.OriginUrl);
  if (url) return { kind: 'url', url };
  const what = ORIGIN_TYPE_NAMES[zone.OriginType];
  return { kind: 'unavailable', reason: what ? `The zone's origin is ${what}, which edgeplane does not run.` : 'The zone has no origin URL.' };
}

/** An absolute http(s) URL, or undefined. */
export function httpUrl(value: string | null | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The path and query asked of the origin: the origin URL's own path, if any, then the request's
 * path, joined as text. Never resolved as a URL: resolving `//other-host/x` against the origin
 * would change the host (an open proxy); the request path is already in its one spelling
 * (request-path.ts), so the origin gets exactly the path the edge's rules and token judged.
 */
export function originTarget(origin: URL, path: string, query: string): string {
  const base = origin.pathname.endsWith('/') ? origin.pathname.slice(0, -1) : origin.pathname;
  return `${base}${path}${query === '' ? '' : `?${query}`}`;
}
