/** Accounts: created by the operator (or on first start); each gets a full-access personal key. */
import type { ApiKeyService } from '../api-keys/service.js';
import type { Clock } from '../principal.js';
import type { Account, Store, StoreTx } from '../../store/types.js';

/**
 * Funds a new account starts with, so its pull zones serve until the operator says otherwise;
 * an account whose balance reaches 0 has run out of funds (see pull-zones/state.ts).
 */
export const INITIAL_BALANCE = 100;

export interface NewAccount {
  account: Account;
  apiKey: string;
}

export class AccountService {
  constructor(
    private readonly store: Store,
    private readonly apiKeys: ApiKeyService,
    private readonly clock: Clock,
  ) {}

  async create(name: string, presetKey?: string): Promise<NewAccount> {
    return this.store.transaction((tx) => this.createIn(tx, name, presetKey));
  }

  private async createIn(tx: StoreTx, name: string, presetKey?: string): Promise<NewAccount> {
    const account = await tx.accounts.create(name, INITIAL_BALANCE, this.clock());
    const key = await this.apiKeys.issue(tx, account.id, 'personal', ['FullAccess'], presetKey);
    return { account, apiKey: key.Key };
  }

  /**
   * On an empty store, creates the first account. Returns its key only when it was generated here,
   * so the caller can print it once; a preset key is the operator's and is never echoed.
   */
  async bootstrap(presetKey: string | undefined): Promise<{ generatedKey?: string } | undefined> {
    // Checked inside the transaction so two instances starting together create one account.
    return this.store.transaction(async (tx) => {
      await tx.lock('bootstrap');
      if ((await tx.accounts.count()) > 0) return undefined;
      const created = await this.createIn(tx, 'default', presetKey);
      return presetKey ? {} : { generatedKey: created.apiKey };
    });
  }
}
