/**
 * Certificates the platform issues for pull zone hostnames: the free certificate
 * (`GET /pullzone/loadFreeCertificate`), and the key type such certificates are made with
 * (`POST /pullzone/{id}/updatePrivateKeyType`). Both come from the local authority and are stored
 * on the hostname, as an uploaded certificate is (key sealed), so reads with `includeCertificate`
 * show them and every edge instance serves them.
 *
 * The free certificate is issued without a domain check: the hostname is already claimed by the
 * zone platform-wide, and the local authority is trusted only by whoever chose to trust it. The
 * external flows (external-challenges.ts) are the ones that prove control of a name.
 */
import type { HostnameT, PullZoneT } from '../../schemas/pull-zone.js';
import { errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import type { ZoneEditor } from '../pull-zones/editor.js';
import { hostnameOf, replaceHostname } from '../pull-zones/hostnames.js';
import type { AccountNames } from './account-names.js';
import type { AuthorityStore } from './authority-store.js';
import type { IssuedCertificate } from './local-ca.js';
import { storedForm } from './stored-pair.js';
import type { KeyType } from './x509.js';

/** CertificateProvisionType values: what the platform records for how a certificate came. */
export const PROVISION = { http01: 1, dns01: 2, custom: 3, managed: 4 } as const;
export type IssuedProvision = typeof PROVISION.http01 | typeof PROVISION.dns01;

/** Certificates the platform issued (and so may issue again); not uploaded ones, not the system hostname's. */
export const isIssuedByPlatform = (h: HostnameT) =>
  h.HasCertificate && (h.CertificateProvisionType === PROVISION.http01 || h.CertificateProvisionType === PROVISION.dns01);

export function refuseSystemHostname(hostname: HostnameT, field: string): void {
  if (hostname.IsSystemHostname) {
    throw errors.validation(field, "The system hostname is always served with the platform's own certificate.", 'pullzone.system_hostname');
  }
}

export class FreeCertificates {
  constructor(
    private readonly names: AccountNames,
    private readonly editor: ZoneEditor,
    private readonly authority: AuthorityStore,
    /** Real time: certificates are checked by real clients against their own clocks. */
    private readonly certificateClock: Clock,
  ) {}

  /**
   * `useOnlyHttp01` false, for a hostname inside one of the account's DNS zones, records the
   * certificate as DNS-validated (provision type 2), as the platform does; else HTTP (1).
   */
  async loadFree(principal: Principal, value: string, useOnlyHttp01: boolean): Promise<void> {
    const { zone, hostname } = await this.names.hostname(principal.accountId, value, 'hostname');
    refuseSystemHostname(hostname, 'hostname');
    if (zone.DisableBuiltInCertificateIssuance) {
      throw errors.validation(
        'hostname',
        'Built-in certificate issuance is turned off for this pull zone (DisableBuiltInCertificateIssuance).',
        'pullzone.certificate_issuance_disabled',
      );
    }
    const viaDns = !useOnlyHttp01 && (await this.names.dnsZoneOf(principal.accountId, hostname.Value)) !== undefined;
    const issued = await this.issue(hostname);
    await this.install(principal.accountId, zone.Id, hostname.Id, issued, viaDns ? PROVISION.dns01 : PROVISION.http01);
  }

  /**
   * Sets the key type of the hostname's automatic certificates. One the platform issued earlier is
   * issued again with the new type at once; an uploaded one is left as it is.
   */
  async updateKeyType(principal: Principal, zoneId: number, value: string, keyType: KeyType): Promise<void> {
    let changed = false;
    const stored = await this.editor.edit(principal, zoneId, (zone) => {
      const hostname = hostnameOf(zone, value);
      changed = hostname.CertificateKeyType !== keyType;
      return changed ? replaceHostname(zone, { ...hostname, CertificateKeyType: keyType }) : undefined;
    });
    const hostname = hostnameOf(stored, value);
    if (!changed || !isIssuedByPlatform(hostname)) return;
    const issued = await this.issue(hostname);
    await this.install(principal.accountId, zoneId, hostname.Id, issued, hostname.CertificateProvisionType as IssuedProvision);
  }

  /** Issued outside any transaction: an RSA key takes long enough to hold up every other write. */
  issue(hostname: HostnameT): Promise<IssuedCertificate> {
    return this.authority.get().then((ca) => ca.issue([hostname.Value], hostname.CertificateKeyType as KeyType, this.certificateClock()));
  }

  /** Stores an issued certificate on the hostname; one removed meanwhile is a 404, a key type changed meanwhile is kept. */
  async install(accountId: number, zoneId: number, hostnameId: number, issued: IssuedCertificate, provision: IssuedProvision): Promise<PullZoneT> {
    return this.editor.edit({ accountId }, zoneId, (zone) => {
      const hostname = zone.Hostnames?.find((h) => h.Id === hostnameId);
      if (!hostname) throw errors.notFound('hostname');
      if (hostname.CertificateKeyType !== issued.keyType) throw errors.conflict('The key type of the hostname changed meanwhile; retry.', 'concurrent_update');
      return replaceHostname(zone, { ...hostname, ...storedForm(issued), HasCertificate: true, CertificateProvisionType: provision });
    });
  }
}
