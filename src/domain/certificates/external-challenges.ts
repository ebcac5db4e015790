/**
 * The external certificate flows of a pull zone hostname: a request publishes a challenge, the
 * completion checks it for real and only then has the local authority issue the certificate.
 *
 * - DNS: a TXT record at `_acme-challenge.<hostname>` must hold the value given. When the hostname
 *   lies in one of the account's own DNS zones, edgeplane adds the record there itself (and removes
 *   it once completed). The check asks the DNS plane's authority for names in the store's zones,
 *   the upstream resolver for the others.
 * - HTTP: the edge answers `http://<hostname>/.well-known/acme-challenge/<token>` with the value
 *   (or the origin does, when the zone turned built-in issuance off); the check fetches it through
 *   edgeplane's own edge with the hostname as Host.
 *
 * A challenge stays open CHALLENGE_TTL_MS; a wrong, missing, expired or completed one is a 400
 * that says what failed.
 */
import type { HostnameT } from '../../schemas/pull-zone.js';
import type { Store } from '../../store/types.js';
import type { DocumentRepo } from '../documents.js';
import type { DnsZoneService } from '../dns/service.js';
import { errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import { type AccountNames, relativeTo } from './account-names.js';
import { CHALLENGE_TTL_MS, challengeId, type ChallengeKind, isOpen, type PendingChallenge, randomToken } from './challenges.js';
import type { DnsView } from './dns-view.js';
import { type FreeCertificates, type IssuedProvision, PROVISION, refuseSystemHostname } from './free-certificates.js';
import { fetchChallenge } from './http-check.js';
import { CHALLENGE_PATH, type HttpChallengeBoard } from './http-challenges.js';

const TXT_TYPE = 3;
const CHALLENGE_TTL_SECONDS = 60;

export interface DnsChallengeAnswer {
  Hostname: string;
  RecordName: string;
  RecordType: 'TXT';
  RecordValue: string;
  /** The account's DNS zone edgeplane published the record in; null when the user must add it. */
  PublishedInDnsZoneId: number | null;
  ExpiresAt: string;
}

export interface HttpChallengeAnswer {
  Hostname: string;
  Token: string;
  Url: string;
  FileContent: string;
  ExpiresAt: string;
}

export interface ExternalChallengeDeps {
  store: Store;
  names: AccountNames;
  repo: DocumentRepo<PendingChallenge>;
  board: HttpChallengeBoard;
  free: FreeCertificates;
  dnsZones: DnsZoneService;
  dnsView: DnsView;
  /** Expiry of challenges (the service clock, which tests move). */
  clock: Clock;
  /** The edge's base URL on this instance; undefined while no edge plane listens here. */
  edgeUrl: () => string | undefined;
}

export const acmeName = (hostname: string) => `_acme-challenge.${hostname}`;

export class ExternalChallenges {
  constructor(private readonly deps: ExternalChallengeDeps) {}

  async requestDns(principal: Principal, value: string): Promise<DnsChallengeAnswer> {
    const { zone, hostname } = await this.deps.names.hostname(principal.accountId, value);
    refuseSystemHostname(hostname, 'Hostname');
    const previous = await this.deps.repo.find(this.deps.store, principal.accountId, challengeId('dns', hostname.Id));
    await this.unpublish(principal, previous?.doc);
    const recordValue = randomToken();
    const dnsZone = await this.deps.names.dnsZoneOf(principal.accountId, hostname.Value);
    let published: PendingChallenge['Published'] = null;
    if (dnsZone) {
      const record = await this.deps.dnsZones.records.add(principal, dnsZone.id, {
        Type: TXT_TYPE,
        Name: relativeTo(acmeName(hostname.Value), dnsZone.domain),
        Value: recordValue,
        Ttl: CHALLENGE_TTL_SECONDS,
        Comment: 'Certificate challenge published by edgeplane; removed when completed.',
      });
      published = { DnsZoneId: dnsZone.id, RecordId: record.Id };
    }
    const challenge = await this.save(principal.accountId, 'dns', zone.Id, hostname.Id, hostname.Value, '', recordValue, published);
    return {
      Hostname: hostname.Value,
      RecordName: acmeName(hostname.Value),
      RecordType: 'TXT',
      RecordValue: recordValue,
      PublishedInDnsZoneId: published?.DnsZoneId ?? null,
      ExpiresAt: challenge.ExpiresAt,
    };
  }

  async completeDns(principal: Principal, value: string): Promise<void> {
    const { zone, hostname } = await this.deps.names.hostname(principal.accountId, value);
    const challenge = await this.open(principal.accountId, 'dns', hostname.Id);
    const name = acmeName(hostname.Value);
    const seen = await this.deps.dnsView.txt(name);
    if (seen.served === 'nowhere') throw errors.validation('Hostname', `The TXT record could not be looked up: ${seen.reason}`, 'pullzone.challenge_failed');
    if (!seen.values.includes(challenge.Value)) {
      const found = seen.values.length === 0 ? 'no TXT record' : `only ${seen.values.map((v) => JSON.stringify(v)).join(', ')}`;
      const where = seen.served === 'store' ? "edgeplane's DNS plane" : 'the upstream resolver';
      throw errors.validation('Hostname', `${where} answers ${found} at ${name}; expected "${challenge.Value}".`, 'pullzone.challenge_failed');
    }
    await this.finish(principal, zone.Id, hostname, challenge, PROVISION.dns01);
  }

  async requestHttp(principal: Principal, value: string): Promise<HttpChallengeAnswer> {
    const { zone, hostname } = await this.deps.names.hostname(principal.accountId, value);
    refuseSystemHostname(hostname, 'Hostname');
    const token = randomToken();
    // The body proves the answer came from the one who asked: the token alone is in the URL already.
    const content = `${token}.${randomToken()}`;
    const challenge = await this.save(principal.accountId, 'http', zone.Id, hostname.Id, hostname.Value, token, content, null);
    return {
      Hostname: hostname.Value,
      Token: token,
      Url: `http://${hostname.Value}${CHALLENGE_PATH}${token}`,
      FileContent: content,
      ExpiresAt: challenge.ExpiresAt,
    };
  }

  async completeHttp(principal: Principal, value: string): Promise<void> {
    const { zone, hostname } = await this.deps.names.hostname(principal.accountId, value);
    const challenge = await this.open(principal.accountId, 'http', hostname.Id);
    const edgeUrl = this.deps.edgeUrl();
    if (!edgeUrl) {
      throw errors.validation(
        'Hostname',
        'The challenge cannot be fetched: the edge plane does not run on this instance (EDGEPLANE_EDGE_PORT is off).',
        'pullzone.challenge_failed',
      );
    }
    const url = `http://${hostname.Value}${CHALLENGE_PATH}${challenge.Token}`;
    const fetched = await fetchChallenge(edgeUrl, hostname.Value, challenge.Token);
    if (!fetched.ok) throw errors.validation('Hostname', `Fetching ${url} through the edge failed: ${fetched.problem}.`, 'pullzone.challenge_failed');
    if (fetched.status !== 200 || fetched.body.trim() !== challenge.Value) {
      const got = fetched.status !== 200 ? `status ${fetched.status}` : 'a different body';
      throw errors.validation('Hostname', `${url} answered ${got}; expected status 200 with the challenge's file content.`, 'pullzone.challenge_failed');
    }
    await this.finish(principal, zone.Id, hostname, challenge, PROVISION.http01);
  }

  private async open(accountId: number, kind: ChallengeKind, hostnameId: number): Promise<PendingChallenge> {
    const found = await this.deps.repo.find(this.deps.store, accountId, challengeId(kind, hostnameId));
    const operation = kind === 'dns' ? 'requestExternalDnsCertificate' : 'requestExternalHttpCertificate';
    if (!found || found.doc.Completed) {
      throw errors.validation(
        'Hostname',
        `No open ${kind.toUpperCase()} challenge for this hostname: ask for one with ${operation} first.`,
        'pullzone.challenge_missing',
      );
    }
    if (!isOpen(found.doc, this.deps.clock())) {
      throw errors.validation(
        'Hostname',
        `The challenge expired at ${found.doc.ExpiresAt}: ask for a new one with ${operation}.`,
        'pullzone.challenge_expired',
      );
    }
    return found.doc;
  }

  private async finish(principal: Principal, zoneId: number, hostname: HostnameT, challenge: PendingChallenge, provision: IssuedProvision): Promise<void> {
    await this.deps.free.install(principal.accountId, zoneId, hostname.Id, await this.deps.free.issue(hostname), provision);
    await this.save(principal.accountId, challenge.Kind, zoneId, hostname.Id, challenge.Hostname, challenge.Token, challenge.Value, null, true);
    await this.unpublish(principal, challenge);
  }

  /** Removes the TXT record edgeplane published for a challenge; one the user deleted already is fine. */
  private async unpublish(principal: Principal, challenge: PendingChallenge | undefined): Promise<void> {
    const published = challenge?.Published;
    if (!published) return;
    await this.deps.dnsZones.records.delete(principal, published.DnsZoneId, published.RecordId).catch((error: unknown) => {
      if ((error as { code?: string }).code !== 'not_found') throw error;
    });
  }

  private async save(
    accountId: number,
    kind: ChallengeKind,
    zoneId: number,
    hostnameId: number,
    hostname: string,
    token: string,
    value: string,
    published: PendingChallenge['Published'],
    completed = false,
  ): Promise<PendingChallenge> {
    const id = challengeId(kind, hostnameId);
    const challenge: PendingChallenge = {
      Kind: kind,
      Hostname: hostname,
      HostnameId: hostnameId,
      PullZoneId: zoneId,
      Token: token,
      Value: value,
      ExpiresAt: new Date(this.deps.clock().getTime() + CHALLENGE_TTL_MS).toISOString(),
      Completed: completed,
      Published: published,
    };
    await this.deps.store.transaction(async (tx) => {
      const current = await this.deps.repo.find(tx, accountId, id);
      if (current) await this.deps.repo.update(tx, accountId, current, challenge);
      else await this.deps.repo.insert(tx, accountId, id, challenge);
      const version = (current?.version ?? 0) + 1;
      tx.afterCommit(() => this.deps.board.committed(id, version, challenge));
    });
    return challenge;
  }
}
