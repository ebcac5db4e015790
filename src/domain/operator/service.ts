/**
 * What only the operator may do: create accounts, set an account's funds, record bandwidth usage,
 * suspend zones. These are the events that drive the pull zone state transitions (state.ts).
 */
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { Account, Store } from '../../store/types.js';
import type { AccountService, NewAccount } from '../accounts/service.js';
import type { BillingService } from '../billing/service.js';
import type { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import { withoutCertificates } from '../pull-zones/service.js';
import { shouldBeEnabled } from '../pull-zones/state.js';
import { BANDWIDTH, pullZoneSubject } from '../usage/pull-zone-metrics.js';
import type { UsageRecorder } from '../usage/recorder.js';

/** Where the operator's events leave a trace: the ledger (funds) and the usage counters (bytes). */
export interface OperatorRecords {
  billing: BillingService;
  usage: UsageRecorder;
}

export interface AccountView {
  Id: number;
  Name: string;
  Balance: number;
  DateCreated: string;
}

const view = (a: Account): AccountView => ({ Id: a.id, Name: a.name, Balance: a.balance, DateCreated: a.createdAt });

export class OperatorService {
  constructor(
    private readonly store: Store,
    private readonly accounts: AccountService,
    private readonly pullZones: DocumentRepo<PullZoneT>,
    private readonly records: OperatorRecords,
  ) {}

  createAccount(name: string): Promise<NewAccount> {
    return this.accounts.create(name);
  }

  async listAccounts(): Promise<AccountView[]> {
    return (await this.store.accounts.list()).map(view);
  }

  async setBalance(accountId: number, balance: number): Promise<AccountView> {
    // What the account owes does not depend on its balance: the funds left are the new balance less it.
    const owed = await this.records.billing.owed(accountId);
    return this.store.transaction(async (tx) => {
      // Two operators setting the balance at once must each record the change they made.
      await tx.lock(`balance:${accountId}`);
      const before = await tx.accounts.get(accountId);
      if (!before || !(await tx.accounts.setBalance(accountId, balance))) throw errors.notFound('account');
      await this.records.billing.recordFunds(tx, accountId, balance - before.balance);
      const zones = await tx.docs.list<PullZoneT>('pullZone', accountId, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
      for (const stored of zones.items) {
        if (stored.doc.Enabled === shouldBeEnabled(stored.doc, balance - owed)) continue;
        const zone = await this.pullZones.get(tx, accountId, stored.id);
        await this.pullZones.update(tx, accountId, zone, { ...zone.doc, Enabled: shouldBeEnabled(zone.doc, balance - owed) });
      }
      return view((await tx.accounts.get(accountId))!);
    });
  }

  /** Bytes count against the zone's limit and, as bytes of no known region, towards the month's charges. */
  async addUsage(pullZoneId: number, bytes: number): Promise<PullZoneT> {
    const zone = await this.changeZone(pullZoneId, (z) => ({ ...z, MonthlyBandwidthUsed: z.MonthlyBandwidthUsed + bytes }));
    this.records.usage.add(pullZoneSubject(pullZoneId), BANDWIDTH, bytes);
    return zone;
  }

  async setSuspended(pullZoneId: number, suspended: boolean): Promise<PullZoneT> {
    return this.changeZone(pullZoneId, (zone) => ({ ...zone, Suspended: suspended }));
  }

  private async changeZone(pullZoneId: number, change: (zone: PullZoneT) => PullZoneT): Promise<PullZoneT> {
    const owner = await this.pullZones.findAnyAccount(this.store, pullZoneId);
    if (!owner) throw errors.notFound('pull zone');
    const funds = await this.records.billing.availableFunds(owner.accountId);
    return this.store.transaction(async (tx) => {
      const zone = await this.pullZones.findAnyAccount(tx, pullZoneId);
      if (!zone) throw errors.notFound('pull zone');
      const changed = change(zone.doc);
      const next = { ...changed, Enabled: shouldBeEnabled(changed, funds) };
      await this.pullZones.update(tx, zone.accountId, zone, next);
      return withoutCertificates(next);
    });
  }
}
