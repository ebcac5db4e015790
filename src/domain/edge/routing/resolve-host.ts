/**
 * Which pull zone a hostname belongs to, read from the store: the edge asks once per hostname and
 * keeps the answer (see directory.ts); `POST /purge` asks for the URL it is given.
 * 1. A hostname of a zone: every hostname, the system one included, is claimed platform-wide by a
 *    document named after it.
 * 2. `<name>.<CDN domain>`: the system hostname of zone `<name>` under today's CDN domain (a zone made
 *    under another domain keeps its stored system hostname too).
 * 3. A name in a DNS zone: the closest enclosing zone the store holds decides, through its
 *    `PullZone` and `Redirect` records (dns-names.ts).
 */
import type { DnsRecordT } from '../../../schemas/dns.js';
import type { PullZoneT } from '../../../schemas/pull-zone.js';
import type { Store } from '../../../store/types.js';
import { servedZoneOf } from '../../dns/served-zones.js';
import type { StoredDnsZone } from '../../dns/zone-writer.js';
import type { DocumentRepo } from '../../documents.js';
import type { HostnameClaim } from '../../pull-zones/hostnames.js';
import { type DnsTarget, edgeNamesOf, wildcardOf } from './dns-names.js';

export type HostRoute =
  | { kind: 'zone'; zoneId: number }
  /** A DNS PullZone record: served only while the record's zone and the pull zone share an account. */
  | { kind: 'dns'; zoneId: number; accountId: number }
  | { kind: 'redirect'; location: string }
  | { kind: 'unknown' };

export interface HostSources {
  store: Store;
  pullZones: DocumentRepo<PullZoneT>;
  dnsZones: DocumentRepo<StoredDnsZone>;
  cdnDomain: string;
}

const UNKNOWN: HostRoute = { kind: 'unknown' };

export async function resolveHost(sources: HostSources, host: string): Promise<HostRoute> {
  const { store } = sources;
  const claim = await store.docs.findByName<HostnameClaim>('hostname', host);
  if (claim) return { kind: 'zone', zoneId: claim.doc.PullZoneId };
  const suffix = `.${sources.cdnDomain}`;
  if (host.endsWith(suffix)) {
    const name = host.slice(0, -suffix.length);
    if (name !== '' && !name.includes('.')) {
      const zone = await store.docs.findByName<PullZoneT>('pullZone', name);
      if (zone) return { kind: 'zone', zoneId: Number(zone.id) };
    }
  }
  return fromDns(sources, host);
}

async function fromDns(sources: HostSources, host: string): Promise<HostRoute> {
  for (let domain: string | undefined = host; domain !== undefined; domain = parentOf(domain)) {
    const found = await sources.dnsZones.findByName(sources.store, domain);
    if (!found) continue;
    const id = Number(found.id);
    const records = (await sources.store.dnsRecords.ofZones<DnsRecordT>([id])).get(id) ?? [];
    const names = edgeNamesOf(servedZoneOf(id, found.accountId, found.doc, { nameservers: [] }, () => records));
    const target = names.get(host) ?? wildcardTarget(names, host, domain);
    return target ? routeOf(target) : UNKNOWN;
  }
  return UNKNOWN;
}

/** `*.a.example.com`, then `*.example.com`, down to the zone's own wildcard. */
function wildcardTarget(names: Map<string, DnsTarget>, host: string, domain: string): DnsTarget | undefined {
  for (let name: string | undefined = host; name !== undefined && name !== domain; name = parentOf(name)) {
    const wildcard = wildcardOf(name);
    const target = wildcard === undefined ? undefined : names.get(wildcard);
    if (target) return target;
  }
  return undefined;
}

const parentOf = (name: string): string | undefined => {
  const dot = name.indexOf('.');
  return dot < 0 ? undefined : name.slice(dot + 1);
};

const routeOf = (target: DnsTarget): HostRoute =>
  target.kind === 'redirect' ? { kind: 'redirect', location: target.location } : { kind: 'dns', zoneId: target.pullZoneId, accountId: target.accountId };
