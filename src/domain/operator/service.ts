/**
 * What only the operator may do: create accounts, set an account's funds, record bandwidth usage,
 * suspend zones. These are the events that drive the pull zone state transitions (state.ts).
 */
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { Account, Store } from '../../store/types.js';
import type { AccountService, NewAccount } from '../accounts/service.js';
import type { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import { withoutCertificates } from '../pull-zones/service.js';
import { shouldBeEnabled } from '../pull-zones/state.js';

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
  ) {}

  createAccount(name: string): Promise<NewAccount> {
    return this.accounts.create(name);
  }

  async listAccounts(): Promise<AccountView[]> {
    return (await this.store.accounts.list()).map(view);
  }

  async setBalance(accountId: number, balance: number): Promise<AccountView> {
    return this.store.transaction(async (tx) => {
      if (!(await tx.accounts.setBalance(accountId, balance))) throw errors.notFound('account');
      const zones = await tx.docs.list<PullZoneT>('pullZone', accountId, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
      for (const stored of zones.items) {
        if (stored.doc.Enabled === shouldBeEnabled(stored.doc, balance)) continue;
        const zone = await this.pullZones.get(tx, accountId, stored.id);
        await this.pullZones.update(tx, accountId, zone, { ...zone.doc, Enabled: shouldBeEnabled(zone.doc, balance) });
      }
      return view((await tx.accounts.get(accountId))!);
    });
  }

  async addUsage(pullZoneId: number, bytes: number): Promise<PullZoneT> {
    return this.changeZone(pullZoneId, (zone) => ({ ...zone, MonthlyBandwidthUsed: zone.MonthlyBandwidthUsed + bytes }));
  }

  async setSuspended(pullZoneId: number, suspended: boolean): Promise<PullZoneT> {
    return this.changeZone(pullZoneId, (zone) => ({ ...zone, Suspended: suspended }));
  }

  private async changeZone(pullZoneId: number, change: (zone: PullZoneT) => PullZoneT): Promise<PullZoneT> {
    return this.store.transaction(async (tx) => {
      const zone = await this.pullZones.findAnyAccount(tx, pullZoneId);
      if (!zone) throw errors.notFound('pull zone');
      const account = await tx.accounts.get(zone.accountId);
      const changed = change(zone.doc);
      const next = { ...changed, Enabled: shouldBeEnabled(changed, account?.balance ?? 0) };
      await this.pullZones.update(tx, zone.accountId, zone, next);
      return withoutCertificates(next);
    });
  }
}
