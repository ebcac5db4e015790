/**
 * Which certificate the edge's TLS listener presents for a name (SNI), and the oldest TLS version
 * it accepts there:
 * 1. a pull zone hostname with a certificate of its own (uploaded, or issued through the API):
 *    that one — an issued one nearing its end is replaced by a fresh one from the local authority;
 * 2. any other hostname of a pull zone (system hostnames included): a certificate from the local
 *    authority for that name, with the hostname's key type;
 * 3. a name that one of the store's DNS zones points at the edge (PullZone and Redirect records,
 *    or addresses of the edge): the zone's wildcard certificate when one was issued and covers
 *    the name, else one from the local authority;
 * 4. anything else, and handshakes without SNI: the default certificate, for the CDN domain
 *    (`*.<cdn domain>` and the domain itself). Clients that check names reject it for a name it
 *    does not cover, as they should; the handshake still completes, so a client told to skip the
 *    check sees the edge's 404 page rather than a reset connection.
 * Lookups are cached per name and dropped when the change feed reports a change to pull zones,
 * hostnames, DNS zones or zone certificates; certificates issued on demand are kept apart
 * (issued-leaves.ts), so a dropped lookup costs a store read, not a new key.
 */
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { Store, StoreChange } from '../../store/types.js';
import { ExpiringMap } from '../bounded-map.js';
import type { DocumentRepo } from '../documents.js';
import type { Clock } from '../principal.js';
import { canonicalHostname, findHostname, type HostnameClaim } from '../pull-zones/hostnames.js';
import type { DnsView } from './dns-view.js';
import { isIssuedByPlatform, PROVISION } from './free-certificates.js';
import { type IssuedLeaves, needsRenewal } from './issued-leaves.js';
import type { IssuedCertificate } from './local-ca.js';
import { storedPair } from './stored-pair.js';
import type { KeyType } from './x509.js';
import { type ZoneCertificate, zoneCertificateId } from './zone-certificates.js';

export type TlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2';

export interface CertificateMaterial {
  /** The certificate (and any chain after it), PEM. */
  certificatePem: string;
  privateKeyPem: string;
  /** The oldest protocol the name's zone accepts (EnableTLS1, EnableTLS1_1); TLS 1.2 elsewhere. */
  minVersion: TlsVersion;
  /** Where it came from: `custom` uploaded, `issued` through the API, `zone` a DNS zone's wildcard, `local-ca` made on demand, `default`. */
  source: 'custom' | 'issued' | 'zone' | 'local-ca' | 'default';
}

/** What the TLS listener asks. */
export interface TlsCertificates {
  /** The certificate for a name sent as SNI; undefined (no SNI): the default one. */
  forName(servername: string | undefined): Promise<CertificateMaterial>;
}

export interface EdgeCertificateDeps {
  store: Store;
  claims: DocumentRepo<HostnameClaim>;
  pullZones: DocumentRepo<PullZoneT>;
  zoneCertificates: DocumentRepo<ZoneCertificate>;
  leaves: IssuedLeaves;
  dnsView: DnsView;
  cdnDomain: string;
  /** EDGEPLANE_EDGE_ADDRESSES: a name whose DNS answer holds one of them reaches the edge. */
  edgeAddresses: readonly string[];
  /** Real time, for certificates nearing their end. */
  certificateClock: Clock;
}

/** A safety net beside the change feed: a lookup never outlives this (a DNS change can land between feed and commit). */
const LOOKUP_TTL_MS = 30_000;
const MAX_NAMES = 10_000;
const WATCHED: ReadonlySet<string> = new Set(['pullZone', 'hostname', 'dnsZone', 'dnsRecord', 'zoneCertificate']);

export const minVersionOf = (zone: PullZoneT): TlsVersion => (zone.EnableTLS1 ? 'TLSv1' : zone.EnableTLS1_1 ? 'TLSv1.1' : 'TLSv1.2');

const parentOf = (name: string) => name.slice(name.indexOf('.') + 1);

export class EdgeCertificates implements TlsCertificates {
  private readonly lookups = new ExpiringMap<string, { until: number; material: Promise<CertificateMaterial> }>(MAX_NAMES);
  private readonly edgeAddresses: ReadonlySet<string>;

  constructor(private readonly deps: EdgeCertificateDeps) {
    this.edgeAddresses = new Set(deps.edgeAddresses);
    deps.store.changes.subscribe((change) => this.changed(change));
  }

  forName(servername: string | undefined): Promise<CertificateMaterial> {
    const name = servername === undefined ? undefined : canonicalHostname(servername);
    const key = name ?? '';
    const held = this.lookups.getFresh(key, Date.now());
    if (held) return held.material;
    const generation = this.deps.store.changes.generation();
    const material = name === undefined ? this.defaultMaterial() : this.lookup(name);
    const entry = { until: Date.now() + LOOKUP_TTL_MS, material };
    this.lookups.set(key, entry);
    // Kept only if nothing changed meanwhile (the ChangeFeed contract), and never when it failed.
    material.then(
      () => {
        if (this.deps.store.changes.generation() !== generation && this.lookups.get(key) === entry) this.lookups.delete(key);
      },
      () => {
        if (this.lookups.get(key) === entry) this.lookups.delete(key);
      },
    );
    return material;
  }

  private changed(change: StoreChange): void {
    if (change.type === 'all') {
      this.lookups.clear();
      this.deps.leaves.clear();
    } else if (change.type === 'doc' && WATCHED.has(change.kind)) {
      this.lookups.clear();
    }
  }

  private async lookup(name: string): Promise<CertificateMaterial> {
    const { store, claims, pullZones } = this.deps;
    const claim = await claims.findByName(store, name);
    const zone = claim && (await pullZones.findAnyAccount(store, claim.doc.PullZoneId));
    const hostname = zone && findHostname(zone.doc, name);
    if (zone && hostname) {
      const minVersion = minVersionOf(zone.doc);
      const own = hostname.IsSystemHostname ? undefined : storedPair(hostname);
      const renew = own !== undefined && isIssuedByPlatform(hostname) && needsRenewal(own.notAfter, this.deps.certificateClock());
      if (own && !renew) return { ...own, minVersion, source: hostname.CertificateProvisionType === PROVISION.custom ? 'custom' : 'issued' };
      return this.issued([name], hostname.CertificateKeyType as KeyType, minVersion, 'local-ca');
    }
    const pointed = await this.deps.dnsView.storeAddresses(name);
    if (pointed?.addresses.some((address) => this.edgeAddresses.has(address))) {
      const wildcard = await this.zoneCertificate(pointed.zoneId, name);
      if (wildcard) return { certificatePem: wildcard.Certificate, privateKeyPem: wildcard.PrivateKey, minVersion: 'TLSv1.2', source: 'zone' };
      return this.issued([name], 0, 'TLSv1.2', 'local-ca');
    }
    return this.defaultMaterial();
  }

  /** The zone's certificate for the name itself, or for its parent (`*.<parent>` covers one label more). */
  private async zoneCertificate(dnsZoneId: number, name: string): Promise<ZoneCertificate | undefined> {
    for (const domain of [name, parentOf(name)]) {
      const found = await this.deps.zoneCertificates.findAnyAccount(this.deps.store, zoneCertificateId(dnsZoneId, domain));
      if (found && !needsRenewal(new Date(found.doc.NotAfter), this.deps.certificateClock())) return found.doc;
    }
    return undefined;
  }

  private async defaultMaterial(): Promise<CertificateMaterial> {
    const domain = this.deps.cdnDomain;
    return materialOf(await this.deps.leaves.kept([`*.${domain}`, domain], 0), 'TLSv1.2', 'default');
  }

  private async issued(names: string[], keyType: KeyType, minVersion: TlsVersion, source: CertificateMaterial['source']): Promise<CertificateMaterial> {
    return materialOf(await this.deps.leaves.get(names, keyType), minVersion, source);
  }
}

const materialOf = (leaf: IssuedCertificate, minVersion: TlsVersion, source: CertificateMaterial['source']): CertificateMaterial => ({
  certificatePem: leaf.certificatePem,
  privateKeyPem: leaf.privateKeyPem,
  minVersion,
  source,
});
