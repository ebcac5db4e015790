/**
 * The certificates of an installation, built once per app: the local authority in the store, the
 * certificates issued from it on demand, the operations of the API, the HTTP challenges the edge
 * answers, and what the edge's TLS listener presents per name.
 */
import type { Config } from '../../config.js';
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import type { DnsZoneService } from '../dns/service.js';
import type { Authority } from '../dns/serving/types.js';
import { type Clock, systemClock } from '../principal.js';
import { ZoneEditor } from '../pull-zones/editor.js';
import { hostnameClaims } from '../pull-zones/hostnames.js';
import { AccountNames } from './account-names.js';
import { AuthorityStore } from './authority-store.js';
import { challengeRepo, type PendingChallenge } from './challenges.js';
import { DnsView } from './dns-view.js';
import { EdgeCertificates } from './edge-certificates.js';
import { ExternalChallenges } from './external-challenges.js';
import { FreeCertificates } from './free-certificates.js';
import { HttpChallengeBoard } from './http-challenges.js';
import { IssuedLeaves } from './issued-leaves.js';
import { ZoneCertificates, zoneCertificateRepo } from './zone-certificates.js';

export interface CertificateServiceDeps {
  store: Store;
  secrets: Secrets;
  /** The service clock (challenge expiry), which tests move by hand. */
  clock: Clock;
  config: Pick<Config, 'cdnDomain' | 'edgeAddresses' | 'dnsUpstream'>;
  pullZones: DocumentRepo<PullZoneT>;
  dnsZones: DnsZoneService;
  dnsAuthority: Authority;
  /** Loads the store's DNS zones into the authority (once). */
  ensureDnsZonesLoaded: () => Promise<void>;
  /**
   * Certificates are checked by real clients against their real clocks, so validity follows real
   * time whatever the service clock says.
   */
  certificateClock?: Clock;
}

export class CertificateService {
  readonly authority: AuthorityStore;
  readonly leaves: IssuedLeaves;
  readonly free: FreeCertificates;
  readonly external: ExternalChallenges;
  readonly zones: ZoneCertificates;
  /** The HTTP challenges the edge answers (HttpChallenges of the edge's contract). */
  readonly httpChallenges: HttpChallengeBoard;
  /** What the edge's TLS listener presents per name. */
  readonly edge: EdgeCertificates;
  private readonly challenges: DocumentRepo<PendingChallenge>;
  private readonly store: Store;
  /** The edge plane's base URL on this instance, set once it listens: the HTTP challenge check fetches through it. */
  edgeUrl: string | undefined;

  constructor(deps: CertificateServiceDeps) {
    const certificateClock = deps.certificateClock ?? systemClock;
    const claims = hostnameClaims(deps.secrets);
    const names = new AccountNames(deps.store, claims, deps.pullZones, deps.dnsZones.zones);
    const dnsView = new DnsView({ authority: deps.dnsAuthority, ensureZonesLoaded: deps.ensureDnsZonesLoaded, upstream: deps.config.dnsUpstream });
    const challenges = challengeRepo(deps.secrets);
    this.challenges = challenges;
    this.store = deps.store;
    this.authority = new AuthorityStore(deps.store, deps.secrets, certificateClock);
    this.leaves = new IssuedLeaves(this.authority, certificateClock);
    this.free = new FreeCertificates(names, new ZoneEditor(deps.store, deps.pullZones), this.authority, certificateClock);
    this.httpChallenges = new HttpChallengeBoard(deps.store, challenges, deps.clock);
    this.external = new ExternalChallenges({
      store: deps.store,
      names,
      repo: challenges,
      board: this.httpChallenges,
      free: this.free,
      dnsZones: deps.dnsZones,
      dnsView,
      clock: deps.clock,
      edgeUrl: () => this.edgeUrl,
    });
    const zoneCertificates = zoneCertificateRepo(deps.secrets);
    this.zones = new ZoneCertificates(deps.store, zoneCertificates, deps.dnsZones, dnsView, this.authority, certificateClock);
    this.edge = new EdgeCertificates({
      store: deps.store,
      claims,
      pullZones: deps.pullZones,
      zoneCertificates,
      leaves: this.leaves,
      dnsView,
      cdnDomain: deps.config.cdnDomain,
      edgeAddresses: deps.config.edgeAddresses.split(','),
      certificateClock,
    });
  }

  /** A pull zone's deletion (in its transaction) takes the challenges of its hostnames along. */
  async forgetPullZone(tx: StoreTx, accountId: number, pullZoneId: number): Promise<void> {
    for (const id of await this.challenges.childIds(tx, accountId, pullZoneId)) {
      await this.challenges.delete(tx, accountId, id);
      tx.afterCommit(() => this.httpChallenges.committed(id, Number.POSITIVE_INFINITY, undefined));
    }
  }

  /**
   * A DNS zone's deletion (in its transaction) takes its wildcard certificates along: they could no
   * longer be served (zone ids are never reused), but their keys are credentials.
   */
  async forgetDnsZone(tx: StoreTx, accountId: number, dnsZoneId: number): Promise<void> {
    for (const id of await this.zones.repo.childIds(tx, accountId, dnsZoneId)) await this.zones.repo.delete(tx, accountId, id);
  }

  /** The root certificate, PEM, created on first use: what developers add to their trust stores. */
  async rootPem(): Promise<string> {
    return (await this.authority.get()).rootPem;
  }
}
