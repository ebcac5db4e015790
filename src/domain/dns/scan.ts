/**
 * Record scans: what a domain publishes today, found by asking the upstream resolver
 * (`EDGEPLANE_DNS_UPSTREAM`) the questions of scan-names.ts, so its records can be brought into a
 * zone before the delegation moves.
 *
 * As on the platform, a scan runs in the background: `trigger` stores it Pending (0) and queues a
 * stored job; the job marks it InProgress (1), asks, and stores Completed (2) with the records or
 * Failed (3) with the reason. Scans are documents in the store (kind 'dnsRecordScan', indexed by
 * their domain), so every instance sees them, they survive restarts, and they go with their
 * account. An account keeps one scan per domain, the latest: a new scan replaces the previous one,
 * and a scan asked for a domain before its zone existed is the zone's scan once the zone is added.
 */
import { randomUUID } from 'node:crypto';
import type { JobRunner } from '../../jobs/runner.js';
import type { DnsRecordScanRequestT, DnsRecordScanT } from '../../schemas/dns-scan.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { AppError, errors } from '../errors.js';
import { type Clock, type Principal, userIdOf } from '../principal.js';
import { type DiscoveryOptions, discoverRecords } from './scan-discover.js';
import { parseUpstream, UpstreamQueryError, type UpstreamServer } from './scan-upstream.js';
import type { DnsZoneService } from './service.js';
import { normalizeDomain } from './validate.js';

export const RECORD_SCAN_JOB = 'dns.recordScan';

interface ScanRef {
  accountId: number;
  jobId: string;
}

export interface RecordScanSettings {
  /** `EDGEPLANE_DNS_UPSTREAM`; without it no scan can run. */
  upstream: string | undefined;
  edgeAddresses: readonly string[];
  cdnDomain: string;
}

/** A question unanswered for two seconds, twice, is a resolver that is not there. */
const QUERY = { timeoutMs: 2000, tries: 2, concurrency: 8 };
/** Scans an account keeps per domain are replaced, so this many is only ever reached by racing triggers. */
const KEPT_PER_DOMAIN = 100;

export class DnsRecordScans {
  private readonly scans: DocumentRepo<DnsRecordScanT>;
  private readonly server: UpstreamServer | undefined;
  private readonly discovery: DiscoveryOptions;

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly clock: Clock,
    private readonly zones: DnsZoneService,
    jobs: JobRunner,
    private readonly settings: RecordScanSettings,
  ) {
    this.scans = new DocumentRepo<DnsRecordScanT>('dnsRecordScan', 'DNS record scan', secrets, [], (scan) => ({ parentId: scan.Domain }));
    this.server = settings.upstream === undefined ? undefined : parseUpstream(settings.upstream);
    // A misconfiguration stops the start, as the Flatten lookups' resolver already does for this setting.
    if (settings.upstream !== undefined && !this.server) {
      throw new Error(`EDGEPLANE_DNS_UPSTREAM ("${settings.upstream}") is not a resolver address such as 192.0.2.53 or 192.0.2.53:5353.`);
    }
    this.discovery = { ...QUERY, edgeAddresses: settings.edgeAddresses, cdnDomain: settings.cdnDomain };
    jobs.register(RECORD_SCAN_JOB, (payload) => this.run(payload as ScanRef));
  }

  async trigger(principal: Principal, input: DnsRecordScanRequestT): Promise<Pick<DnsRecordScanT, 'JobId' | 'Status'>> {
    const zoneId = input.ZoneId ?? null;
    const given = input.Domain ?? null;
    if ((zoneId === null) === (given === null)) {
      const message = 'Give either ZoneId (a DNS zone of the account) or Domain (any domain), not both.';
      throw new AppError('validation', message, 'dnszone.scan_target', [
        { field: 'ZoneId', message },
        { field: 'Domain', message },
      ]);
    }
    const domain = zoneId !== null ? ((await this.zones.get(principal, zoneId)).Domain ?? '') : normalizeDomain(given ?? '');
    if (domain === undefined) throw errors.validation('Domain', 'The Domain field must be a domain name such as example.com.');
    this.upstream();

    const now = this.clock();
    const scan: DnsRecordScanT = {
      JobId: randomUUID(),
      ZoneId: zoneId,
      Domain: domain,
      AccountId: userIdOf(principal.accountId),
      Status: 0,
      CreatedAt: now.toISOString(),
      CompletedAt: null,
      Records: null,
      Error: null,
    };
    await this.store.transaction(async (tx) => {
      for (const earlier of await this.ofDomain(tx, principal.accountId, domain)) await this.scans.delete(tx, principal.accountId, earlier.JobId);
      await this.scans.insert(tx, principal.accountId, scan.JobId, scan);
      const ref: ScanRef = { accountId: principal.accountId, jobId: scan.JobId };
      await tx.jobs.enqueue(RECORD_SCAN_JOB, ref, now.getTime());
    });
    return { JobId: scan.JobId, Status: scan.Status };
  }

  /** The zone's latest scan, whether it was asked for the zone or for its domain. */
  async latest(principal: Principal, zoneId: number): Promise<DnsRecordScanT> {
    const zone = await this.zones.get(principal, zoneId);
    const scans = await this.ofDomain(this.store, principal.accountId, zone.Domain ?? '');
    const last = scans.at(-1);
    if (!last) throw new AppError('not_found', 'No record scan was asked for this DNS zone or its domain yet.', 'dnszone.scan_not_found');
    return last;
  }

  /** Oldest first. */
  private async ofDomain(tx: StoreTx, accountId: number, domain: string): Promise<DnsRecordScanT[]> {
    return (await this.scans.list(tx, accountId, { parentId: domain, offset: 0, limit: KEPT_PER_DOMAIN })).items;
  }

  /** The resolver to ask; a 503 naming the setting when there is none. */
  private upstream(): UpstreamServer {
    if (this.server) return this.server;
    const message = 'Record scans ask the resolver named by EDGEPLANE_DNS_UPSTREAM, which is not set on this server.';
    throw new AppError('unavailable', message, 'dnszone.scan_no_upstream');
  }

  /** The stored job: the scan itself. A scan replaced meanwhile by a newer one is dropped. */
  private async run(ref: ScanRef): Promise<void> {
    const queued = await this.scans.find(this.store, ref.accountId, ref.jobId);
    if (!queued || queued.doc.Status >= 2) return;
    await this.scans.update(this.store, ref.accountId, queued, { ...queued.doc, Status: 1 });

    let outcome: Pick<DnsRecordScanT, 'Status' | 'Records' | 'Error'>;
    try {
      const records = await discoverRecords(this.upstream(), queued.doc.Domain ?? '', this.discovery);
      outcome = { Status: 2, Records: records, Error: null };
    } catch (error) {
      if (!(error instanceof UpstreamQueryError || error instanceof AppError)) throw error;
      const reason =
        error instanceof AppError ? error.message : `The resolver ${this.settings.upstream} (EDGEPLANE_DNS_UPSTREAM) could not answer ${error.message}.`;
      outcome = { Status: 3, Records: null, Error: reason };
    }

    const running = await this.scans.find(this.store, ref.accountId, ref.jobId);
    if (!running) return;
    await this.scans.update(this.store, ref.accountId, running, { ...running.doc, ...outcome, CompletedAt: this.clock().toISOString() });
  }
}
