/**
 * Finding what a name given in a request belongs to, within the caller's account: the pull zone
 * hostname (the platform's certificate operations name a hostname, not a zone), and the DNS zone
 * of the account the name lies in. Another account's hostname is as unknown as a missing one.
 */
import type { HostnameT, PullZoneT } from '../../schemas/pull-zone.js';
import type { StoredDnsZone } from '../dns/zone-writer.js';
import type { Store } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import type { HostnameClaim } from '../pull-zones/hostnames.js';
import { canonicalHostname, findHostname } from '../pull-zones/hostnames.js';

export interface OwnedHostname {
  zone: PullZoneT;
  hostname: HostnameT;
}

export interface AccountZone {
  id: number;
  domain: string;
}

export class AccountNames {
  constructor(
    private readonly store: Store,
    private readonly claims: DocumentRepo<HostnameClaim>,
    private readonly pullZones: DocumentRepo<PullZoneT>,
    private readonly dnsZones: DocumentRepo<StoredDnsZone>,
  ) {}

  /** The canonical form of a hostname sent in `field`, or a 400 naming it. */
  static canonical(value: string, field: string): string {
    const name = canonicalHostname(value);
    if (!name) throw errors.validation(field, `The ${field} must be a domain name such as cdn.example.com.`, 'pullzone.hostname_invalid');
    return name;
  }

  /** The caller's pull zone hostname `value`, or 404. */
  async hostname(accountId: number, value: string, field = 'Hostname'): Promise<OwnedHostname> {
    const name = AccountNames.canonical(value, field);
    const claim = await this.claims.findByName(this.store, name);
    if (!claim || claim.accountId !== accountId) throw errors.notFound('hostname');
    const zone = await this.pullZones.get(this.store, accountId, claim.doc.PullZoneId);
    const hostname = findHostname(zone.doc, name);
    if (!hostname) throw errors.notFound('hostname');
    return { zone: zone.doc, hostname };
  }

  /** The caller's DNS zone that `name` lies in (the longest domain that is a suffix of it), if any. */
  async dnsZoneOf(accountId: number, name: string): Promise<AccountZone | undefined> {
    const labels = name.split('.');
    for (let i = 0; i < labels.length - 1; i++) {
      const domain = labels.slice(i).join('.');
      const found = await this.dnsZones.findByName(this.store, domain);
      if (found) return found.accountId === accountId ? { id: Number(found.id), domain } : undefined;
    }
    return undefined;
  }
}

/** `name` relative to the zone `domain` (`_acme-challenge.cdn` in `example.com`); empty at the apex. */
export const relativeTo = (name: string, domain: string) => (name === domain ? '' : name.slice(0, -(domain.length + 1)));
