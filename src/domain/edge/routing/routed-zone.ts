/**
 * A pull zone as the edge holds it in memory: the stored document, and what serving derives from it,
 * worked out once per version of the document rather than once per request.
 */
import { type KeyRules, keyRulesOf } from '../cache/key.js';
import { type OriginChoice, originOf } from '../origin/choice.js';
import { PurgeLog, type StoredPullZone } from '../purge/purge-log.js';
import type { EdgeZone } from '../types.js';

export interface RoutedZone {
  id: number;
  accountId: number;
  zone: EdgeZone;
  keyRules: KeyRules;
  purges: PurgeLog;
  origin: OriginChoice;
  /** Lower-case hostnames of the zone with their ForceSSL, the system hostname included. */
  hostnames: Map<string, boolean>;
}

export function routedZone(accountId: number, zone: StoredPullZone, cdnDomain: string): RoutedZone {
  const hostnames = new Map<string, boolean>();
  for (const h of zone.Hostnames ?? []) hostnames.set(h.Value.toLowerCase(), h.ForceSSL);
  // The system hostname under today's CDN domain, even if the zone was made under another one.
  const system = zone.Name ? `${zone.Name.toLowerCase()}.${cdnDomain}` : undefined;
  if (system && !hostnames.has(system)) {
    const stored = zone.Hostnames?.find((h) => h.IsSystemHostname);
    hostnames.set(system, stored?.ForceSSL ?? false);
  }
  return { id: zone.Id, accountId, zone, keyRules: keyRulesOf(zone), purges: new PurgeLog(zone), origin: originOf(zone), hostnames };
}
