/**
 * Applies a create or update body to a pull zone: fields left out, or sent as null, keep their
 * value (the platform's partial-update semantics); old spellings are mapped to current fields.
 */
import type { PullZoneT, PullZoneUpdateRequestT } from '../../schemas/pull-zone.js';

/** Request-only fields: accepted for compatibility, never stored under their own name. */
const REQUEST_ONLY = new Set(['CacheControlBrowserMaxAgeOverride', 'DnsOriginPort', 'DnsOriginScheme']);

export function applySettings(zone: PullZoneT, settings: PullZoneUpdateRequestT): PullZoneT {
  const next = { ...zone } as Record<string, unknown>;
  for (const [field, value] of Object.entries(settings)) {
    if (value === null || value === undefined || REQUEST_ONLY.has(field)) continue;
    next[field] = value;
  }
  const legacyBrowserTtl = settings.CacheControlBrowserMaxAgeOverride;
  if (legacyBrowserTtl != null && settings.CacheControlPublicMaxAgeOverride == null) {
    next['CacheControlPublicMaxAgeOverride'] = legacyBrowserTtl;
  }
  return next as PullZoneT;
}
