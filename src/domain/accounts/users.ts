/** `GET /user`: the account as the platform's user record shows it (see profile.ts for what is derived). */
import type { UserT } from '../../schemas/account.js';
import type { Store } from '../../store/types.js';
import { monthOf } from '../billing/months.js';
import type { ChargeCalculator } from '../billing/charges.js';
import { errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import { profileOf } from './profile.js';

export class UserService {
  constructor(
    private readonly store: Store,
    private readonly charges: ChargeCalculator,
    private readonly clock: Clock,
    private readonly cdnDomain: string,
  ) {}

  async get(principal: Principal): Promise<UserT> {
    const account = await this.store.accounts.get(principal.accountId);
    if (!account) throw errors.notFound('user');
    const profile = profileOf(account, this.cdnDomain);
    const now = this.clock();
    const month = await this.charges.month(account.id, monthOf(now), now);
    return {
      Id: profile.userId,
      AccountId: profile.userId,
      Email: profile.email,
      BillingEmail: profile.email,
      FirstName: profile.firstName,
      LastName: profile.lastName,
      StreetAddress: null,
      City: null,
      ZipCode: null,
      Country: null,
      CompanyName: null,
      VATNumber: null,
      ReceiveNotificationEmails: false,
      ReceivePromotionalEmails: false,
      Roles: [...principal.roles],
      Balance: account.balance,
      TrialBalance: 0,
      BillingFreeUntilDate: account.createdAt,
      DateJoined: account.createdAt,
      TrialBandwidthLimit: 0,
      TotalBandwidthUsed: month.bandwidthBytes,
      TwoFactorAuthenticationEnabled: false,
      EmailVerified: true,
      UnreadSupportTicketCount: 0,
      DpaAccepted: false,
      DpaVersionAccepted: 0,
      DpaDateAccepted: null,
      Suspended: account.balance <= 0,
      PaymentsDisabled: true,
      CardVerified: false,
      HasCompleteBillingProfile: false,
      IsSsoAccount: false,
      BillingType: 0,
      EnabledPaymentTypes: [],
      FeatureFlags: [],
      FreeTrialExtendedDate: null,
    };
  }
}
