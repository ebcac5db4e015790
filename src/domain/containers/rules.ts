/**
 * Rules about an application's containers that a JSON schema cannot express. Each failure is a
 * 400 naming the offending field as the client sent it (`containerTemplates[1].endpoints[0].cdn`).
 */
import { containerRegion } from '../reference-data/container-regions.js';
import { errors } from '../errors.js';

interface EndpointLike {
  displayName: string;
  cdn?: unknown;
  anycast?: unknown;
}

/** A container to check; `field` is the prefix of its fields in the request, absent for stored ones. */
export interface CheckedContainer {
  name: string;
  endpoints: readonly EndpointLike[];
  field?: string;
}

/**
 * The specification leaves open whether `cdn` or `anycast` is required. An endpoint is one or the
 * other (its `type` is `cdn` or `anycast`), so exactly one must be given: neither is reported on
 * `cdn`, both on `anycast`.
 */
export function checkEndpointKind(endpoint: EndpointLike, field: string): void {
  const hasCdn = endpoint.cdn != null;
  const hasAnycast = endpoint.anycast != null;
  if (!hasCdn && !hasAnycast) throw errors.validation(`${field}cdn`, `Give the endpoint either cdn or anycast settings.`);
  if (hasCdn && hasAnycast) throw errors.validation(`${field}anycast`, `Give the endpoint either cdn or anycast settings, not both.`);
}

/**
 * Container names and endpoint display names are unique within an application: an endpoint is
 * addressed by its display name (PUT …/endpoints/{endpointId}). Stored containers come first so a
 * clash is reported on the incoming one.
 */
export function checkContainers(containers: readonly CheckedContainer[]): void {
  const names = new Set<string>();
  const displayNames = new Set<string>();
  for (const c of containers) {
    const incoming = c.field !== undefined;
    if (incoming && names.has(c.name)) {
      throw errors.validation(`${c.field}name`, `The application already has a container named "${c.name}".`, 'container.name_taken');
    }
    names.add(c.name);
    c.endpoints.forEach((e, j) => {
      const field = `${c.field ?? ''}endpoints[${j}].`;
      if (incoming) checkEndpointKind(e, field);
      if (incoming && displayNames.has(e.displayName)) {
        throw errors.validation(`${field}displayName`, `The application already has an endpoint named "${e.displayName}".`, 'endpoint.name_taken');
      }
      displayNames.add(e.displayName);
    });
  }
}

/** An application never scales below more instances than it may have. */
export function checkAutoScaling(autoScaling: { min: number; max: number }, prefix: string): void {
  if (autoScaling.min > autoScaling.max) {
    throw errors.validation(
      `${prefix}min`,
      `The minimum instance count (${autoScaling.min}) must not exceed the maximum (${autoScaling.max}).`,
      'autoscaling.min_above_max',
    );
  }
}

/** Endpoint display names are unique within an application (the endpoint `except` may keep its own). */
export function checkDisplayNameFree(
  templates: readonly { endpoints: readonly { id: string; displayName: string }[] }[],
  displayName: string,
  exceptId?: string,
): void {
  if (templates.some((t) => t.endpoints.some((e) => e.id !== exceptId && e.displayName === displayName))) {
    throw errors.validation('displayName', `The application already has an endpoint named "${displayName}".`, 'endpoint.name_taken');
  }
}

/**
 * For a full list of containers sent (replacement, or a patch that sends `containerTemplates`):
 * the stored container each item updates, by its `id`, or undefined for a new one. An id must name
 * one of this application's containers, and only once.
 */
export function matchStoredContainers<T extends { id: string }>(stored: readonly T[], requested: readonly { id?: string | null }[]): (T | undefined)[] {
  const byId = new Map(stored.map((t) => [t.id, t]));
  const claimed = new Set<string>();
  return requested.map((t, i) => {
    if (t.id == null) return undefined;
    const found = byId.get(t.id);
    if (!found) throw errors.validation(`containerTemplates[${i}].id`, `The application has no container with id "${t.id}".`);
    if (claimed.has(t.id)) throw errors.validation(`containerTemplates[${i}].id`, `The container id "${t.id}" is listed more than once.`);
    claimed.add(t.id);
    return found;
  });
}

/** An application runs only in regions of the region list (`GET /mc/regions`); codes match in any letter case. */
export function checkRegions(settings: { allowedRegionIds?: readonly string[] | null; requiredRegionIds?: readonly string[] | null }, prefix: string): void {
  for (const member of ['allowedRegionIds', 'requiredRegionIds'] as const) {
    settings[member]?.forEach((id, i) => {
      if (!containerRegion(id)) {
        throw errors.validation(`${prefix}${member}[${i}]`, `"${id}" is not a region applications can run in; GET /mc/regions lists them.`, 'region.unknown');
      }
    });
  }
}
