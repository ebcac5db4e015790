/**
 * Wildcard certificates of DNS zones (`POST /dnszone/{zoneId}/certificate/issue`): `*.<domain>`
 * and `<domain>`, where the domain is the zone's own (or a name inside it, sent as `Domain`).
 *
 * The check is DNS-01 done in one call, against the DNS plane itself: edgeplane adds a TXT record
 * `_acme-challenge.<domain>` holding a fresh random value to the zone, asks the DNS plane's
 * authority for that name's TXT records, and issues only if the value is served there — which
 * fails when the name is delegated away (NS below the apex), shadowed by a CNAME, or otherwise not
 * answered by the zone. The record is removed again whatever the outcome. The certificate is
 * stored with the zone (key sealed) and served by the edge for the names the zone points at it.
 */
import type { Store } from '../../store/types.js';
import type { Secrets } from '../../security/secrets.js';
import { DocumentRepo } from '../documents.js';
import type { DnsZoneService } from '../dns/service.js';
import { errors } from '../errors.js';
import { type Clock, committedFirst, type Principal } from '../principal.js';
import { AccountNames, relativeTo } from './account-names.js';
import type { AuthorityStore } from './authority-store.js';
import { randomToken } from './challenges.js';
import type { DnsView } from './dns-view.js';
import { acmeName } from './external-challenges.js';

export interface ZoneCertificate {
  DnsZoneId: number;
  Domain: string;
  Names: string[];
  Certificate: string;
  /** PKCS#8 PEM: a credential, sealed at rest. */
  PrivateKey: string;
  NotBefore: string;
  NotAfter: string;
}

/** What the operation answers: the certificate without its key. */
export type IssuedZoneCertificate = Omit<ZoneCertificate, 'PrivateKey'>;

export const zoneCertificateRepo = (secrets: Secrets) =>
  new DocumentRepo<ZoneCertificate>('zoneCertificate', 'zone certificate', secrets, ['PrivateKey'], (c) => ({ parentId: String(c.DnsZoneId) }));

/** One certificate per zone and domain; the zone's id is part of it, so a zone added again later never inherits one. */
export const zoneCertificateId = (dnsZoneId: number, domain: string) => `${dnsZoneId}:${domain}`;

export class ZoneCertificates {
  constructor(
    private readonly store: Store,
    readonly repo: DocumentRepo<ZoneCertificate>,
    private readonly dnsZones: DnsZoneService,
    private readonly dnsView: DnsView,
    private readonly authority: AuthorityStore,
    private readonly certificateClock: Clock,
  ) {}

  async issue(principal: Principal, zoneId: number, requested: string | null | undefined): Promise<IssuedZoneCertificate> {
    const zone = await this.dnsZones.get(principal, zoneId);
    const apex = (zone.Domain ?? '').toLowerCase();
    const domain = requested ? AccountNames.canonical(requested, 'Domain') : apex;
    if (domain !== apex && !domain.endsWith(`.${apex}`)) {
      throw errors.validation('Domain', `The Domain must be ${apex} or a name inside it.`, 'dnszone.certificate_domain');
    }
    await this.check(principal, zoneId, apex, domain);
    const ca = await this.authority.get();
    const issued = await ca.issue([`*.${domain}`, domain], 0, this.certificateClock());
    const stored: ZoneCertificate = {
      DnsZoneId: zoneId,
      Domain: domain,
      Names: issued.names,
      Certificate: issued.certificatePem,
      PrivateKey: issued.privateKeyPem,
      NotBefore: issued.notBefore.toISOString(),
      NotAfter: issued.notAfter.toISOString(),
    };
    await this.store.transaction(async (tx) => {
      const id = zoneCertificateId(zoneId, domain);
      const current = await this.repo.find(tx, principal.accountId, id);
      if (current) await this.repo.update(tx, principal.accountId, current, stored);
      else await this.repo.insert(tx, principal.accountId, id, stored);
    });
    const { PrivateKey: _key, ...answer } = stored;
    return answer;
  }

  /** Publishes the challenge record, looks it up through the DNS plane, and removes it. */
  private async check(caller: Principal, zoneId: number, apex: string, domain: string): Promise<void> {
    // The lookup needs the record in the DNS plane, which takes it as it commits.
    const principal = committedFirst(caller);
    const value = randomToken();
    const name = acmeName(domain);
    const record = await this.dnsZones.records.add(principal, zoneId, { Type: 3, Name: relativeTo(name, apex), Value: value, Ttl: 60 });
    try {
      const seen = await this.dnsView.txt(name);
      if (seen.served !== 'store' || !seen.values.includes(value)) {
        throw errors.validation(
          'Domain',
          `The DNS plane does not serve the challenge record ${name} that was added to the zone (a delegation or a CNAME at that name may hide it).`,
          'dnszone.certificate_check_failed',
        );
      }
    } finally {
      // Best effort: the check's outcome is what the caller needs; a record left behind is harmless.
      await this.dnsZones.records.delete(principal, zoneId, record.Id).catch(() => {});
    }
  }
}
