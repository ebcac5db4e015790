/**
 * The names DNS zones send to the edge: a `PullZone` record (type 7) routes its name to the pull zone
 * it links (when zone and record belong to the same account, checked at routing time), a `Redirect`
 * record (type 5) answers an HTTP redirect to its value. Disabled records send nothing. A record at
 * `*` covers every name below the zone that has no record of its own.
 */
import { linkedId } from '../../dns/record-model.js';
import type { ServedZone } from '../../dns/serving/types.js';

export type DnsTarget = { kind: 'pullZone'; pullZoneId: number; accountId: number } | { kind: 'redirect'; location: string };

export function edgeNamesOf(zone: ServedZone): Map<string, DnsTarget> {
  const names = new Map<string, DnsTarget>();
  for (const record of zone.records) {
    if (record.Disabled || (record.Type !== 5 && record.Type !== 7)) continue;
    const label = (record.Name ?? '').trim().toLowerCase().replace(/\.$/, '');
    const host = label === '' || label === '@' ? zone.domain : `${label}.${zone.domain}`;
    if (record.Type === 7) {
      const pullZoneId = linkedId(record);
      if (pullZoneId !== null) names.set(host, { kind: 'pullZone', pullZoneId, accountId: zone.accountId });
    } else if (record.Value) {
      names.set(host, { kind: 'redirect', location: record.Value });
    }
  }
  return names;
}

/** `*.example.com` for `a.example.com`: the wildcard name that would cover `host`. */
export function wildcardOf(host: string): string | undefined {
  const dot = host.indexOf('.');
  return dot < 0 ? undefined : `*${host.slice(dot)}`;
}
