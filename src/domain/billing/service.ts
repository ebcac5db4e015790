/**
 * Billing: the account's funds, what it owes, and its ledger.
 *
 * - Charges are computed from recorded usage (charges.ts) for the running month on every read.
 * - A month that has ended is closed once, on the first billing read after it: its charges are
 *   frozen in a statement (a ledger record of type 3, unique per account and month, so instances
 *   closing it at once agree) that later deletions cannot change.
 * - Funds move only when the operator sets the balance; each change is a ledger record (type 6
 *   added, type 4 taken back). Charges are not taken from the balance: the operator owns it.
 * - A statement with charges is a payment request; it is paid once the account's funds (the
 *   opening funds and every movement since, in time order) cover it after the statements before it.
 */
import type { AffiliateDetailsT, BillingRecordT, BillingSummaryItemT, BillingT, PaymentRequestT } from '../../schemas/billing.js';
import type { PullZoneT } from '../../schemas/pull-zone.js';
import type { Account, BillingRecord, Store, StoreTx } from '../../store/types.js';
import { INITIAL_BALANCE } from '../accounts/service.js';
import { profileOf } from '../accounts/profile.js';
import { errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import { PRICES } from '../reference-data/prices.js';
import { type ChargeCalculator, type MonthCharges, money } from './charges.js';
import { type DocumentParty, invoicePdf, statementPdf } from './documents.js';
import { monthName, monthOf, monthsBetween, monthStart, nextMonth } from './months.js';
import { DAY_MS } from '../durations.js';

export const RECORD_TYPE = { month: 3, fundsTakenBack: 4, fundsAdded: 6 } as const;

export interface PaymentState {
  record: BillingRecord;
  paidAt: string | null;
}

/** Which statements the funds have covered, oldest first, with when (see the module comment). */
export function settle(account: Account, records: BillingRecord[]): PaymentState[] {
  type Event = { at: string; order: number; funds?: number; statement?: BillingRecord };
  const events: Event[] = [{ at: account.createdAt, order: 0, funds: INITIAL_BALANCE }];
  for (const r of records) {
    if (r.recordType === RECORD_TYPE.month) {
      if (r.amount > 0) events.push({ at: r.at, order: r.id, statement: r });
    } else events.push({ at: r.at, order: r.id, funds: r.amount });
  }
  events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.order - b.order));
  const states: PaymentState[] = [];
  const unpaid: { state: PaymentState; remaining: number }[] = [];
  let funds = 0;
  for (const event of events) {
    if (event.statement) {
      const state = { record: event.statement, paidAt: null };
      states.push(state);
      unpaid.push({ state, remaining: event.statement.amount });
    } else funds += event.funds ?? 0;
    while (unpaid.length > 0 && funds > 0) {
      const first = unpaid[0]!;
      const used = Math.min(funds, first.remaining);
      first.remaining = money(first.remaining - used);
      funds = money(funds - used);
      if (first.remaining > 0) break;
      first.state.paidAt = event.at;
      unpaid.shift();
    }
  }
  return states;
}

const cents = (amount: number) => Math.round(amount * 100);

/** Every closed month's statement plus the running month's charges. */
const owedFrom = (records: BillingRecord[], current: MonthCharges): number =>
  money(records.filter((r) => r.recordType === RECORD_TYPE.month).reduce((sum, r) => sum + r.amount, 0) + current.total);

export class BillingService {
  constructor(
    private readonly store: Store,
    private readonly charges: ChargeCalculator,
    private readonly clock: Clock,
    private readonly cdnDomain: string,
  ) {}

  /** Records funds the operator added (positive) or took back (negative), in the caller's transaction. */
  async recordFunds(tx: StoreTx, accountId: number, change: number): Promise<void> {
    const amount = money(change);
    if (amount === 0) return;
    const recordType = amount > 0 ? RECORD_TYPE.fundsAdded : RECORD_TYPE.fundsTakenBack;
    await tx.billing.add({ accountId, recordType, amount, at: this.clock().toISOString(), month: null, payer: 'operator', details: null });
  }

  /** Closes `month` (which must have ended) for the account: its statement, made once. */
  async closeMonth(accountId: number, month: string): Promise<BillingRecord> {
    const closedAt = monthStart(nextMonth(month));
    if (closedAt > this.clock()) throw new Error(`month ${month} has not ended`);
    const charges = await this.charges.month(accountId, month, closedAt);
    const record = {
      accountId,
      recordType: RECORD_TYPE.month,
      amount: charges.total,
      at: closedAt.toISOString(),
      month,
      payer: null,
      details: JSON.stringify(charges),
    };
    const added = await this.store.billing.add(record);
    if (added) return added;
    // Closed meanwhile (another request, another instance): that statement stands.
    return (await this.store.billing.list(accountId)).find((r) => r.month === month)!;
  }

  /**
   * What the account owes: every closed month's statement and the running month so far. Its funds
   * (the balance: opening funds plus every movement) pay statements in time order (settle), so
   * what remains to spend is the balance less this.
   */
  async owed(accountId: number): Promise<number> {
    const account = await this.store.accounts.get(accountId);
    if (!account) return 0;
    const records = await this.ledger(account);
    const now = this.clock();
    const current = await this.charges.month(accountId, monthOf(now), now);
    return owedFrom(records, current);
  }

  /** The balance less what the account owes: at 0 or below its pull zones stop serving (pull-zones/state.ts). */
  async availableFunds(accountId: number): Promise<number> {
    const account = await this.store.accounts.get(accountId);
    if (!account) return 0;
    return money(account.balance - (await this.owed(accountId)));
  }

  async details(principal: Principal): Promise<BillingT> {
    const account = await this.account(principal);
    const records = await this.ledger(account);
    const now = this.clock();
    const current = await this.charges.month(account.id, monthOf(now), now);
    const lastAdded = [...records].reverse().find((r) => r.recordType === RECORD_TYPE.fundsAdded);
    return {
      Balance: account.balance,
      ThisMonthCharges: current.total,
      LastRechargeBalance: lastAdded?.amount ?? 0,
      AvailableBalance: money(account.balance - owedFrom(records, current)),
      CouponBalance: 0,
      MonthlyCouponUsage: 0,
      BillingRecords: [...records].reverse().map(recordView),
      BillingHistoryChart: this.history(records, current),
      MonthlyChargesEUTraffic: current.traffic.EU,
      MonthlyChargesUSTraffic: current.traffic.US,
      MonthlyChargesASIATraffic: current.traffic.ASIA,
      MonthlyChargesAFTraffic: current.traffic.AF,
      MonthlyChargesSATraffic: current.traffic.SA,
      MonthlyChargesStorage: current.storage,
      MonthlyChargesDNS: current.dns,
      MonthlyChargesOptimizer: current.optimizer ?? 0,
      MonthlyChargesTranscribe: 0,
      MonthlyChargesPremiumEncoding: 0,
      MonthlyChargesExtraPullZones: 0,
      MonthlyChargesExtraStorageZones: 0,
      MonthlyChargesExtraDnsZones: 0,
      MonthlyChargesExtraVideoLibraries: 0,
      MonthlyChargesScripting: 0,
      MonthlyChargesScriptingRequests: 0,
      MonthlyChargesScriptingCpu: 0,
      MonthlyChargesDrm: 0,
      MonthlyChargesManagedContainers: 0,
      MonthlyMcCpu: null,
      MonthlyMcMemory: null,
      MonthlyMcIp: null,
      MonthlyMcIngressTraffic: null,
      MonthlyMcEgressTraffic: null,
      MonthlyMcVolumes: null,
      MonthlyChargesShield: 0,
      MonthlyChargesTaxes: 0,
      MonthlyChargesWebSockets: 0,
      MonthlyChargesDB: 0,
      MonthlyChargesLoadBalancer: 0,
      MonthlyDBWrites: null,
      MonthlyDBReads: null,
      MonthlyDBStorage: null,
      MonthlyDBReplica: null,
      MonthlyBandwidthUsed: current.bandwidthBytes,
      MonthlyDnsSmartQueriesServed: current.dnsSmartQueries,
      MonthlyDnsNormalQueriesServed: current.dnsNormalQueries,
      MonthlyTranscriptionMinutes: 0,
      MonthlyPremiumEncodingBillableMinutes: 0,
      MonthlyDRMLicensesIssued: 0,
      MonthlyScriptingRequests: 0,
      MonthlyScriptingCpuTime: 0,
      BillingEnabled: true,
      MinimumMonthlyCommit: 0,
      VATRate: 0,
      NextMonthVATRate: 0,
      AutomaticPaymentImageUrl: null,
      AutomaticPaymentCardType: null,
      AutomaticPaymentIdentifier: null,
      AutomaticPaymentAmount: 0,
      AutomaticRechargeTreshold: 0,
      AutomaticRechargeEnabled: false,
      AutomaticPaymentFailureCount: 0,
      SavedPaymentMethods: [],
      EUUSDiscount: 0,
      SouthAmericaDiscount: 0,
      AfricaDiscount: 0,
      AsiaOceaniaDiscount: 0,
      OptimizerMonthlyPrice: PRICES.optimizerPerMonth,
      DrmBaseMonthlyPrice: PRICES.drmBasePerMonth,
      DrmCostPerLicense: PRICES.drmPerLicense,
    };
  }

  /** What each pull zone served and cost in the running month, oldest zone first. */
  async summary(principal: Principal): Promise<BillingSummaryItemT[]> {
    const now = this.clock();
    const current = await this.charges.month(principal.accountId, monthOf(now), now);
    const served = new Map(current.pullZones.map((z) => [z.id, z]));
    const zones = await this.store.docs.list<PullZoneT>('pullZone', principal.accountId, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    return zones.items.map(({ doc: { Id } }) => {
      const zone = served.get(Id);
      return { PullZoneId: Id, MonthlyUsage: zone?.amount ?? 0, MonthlyBandwidthUsed: zone?.bytes ?? 0 };
    });
  }

  /** The payment requests not paid yet, oldest first. */
  async paymentRequests(principal: Principal): Promise<PaymentRequestT[]> {
    const account = await this.account(principal);
    const states = settle(account, await this.ledger(account));
    return states.filter((s) => s.paidAt === null).map((s) => requestView(account, s));
  }

  async affiliate(principal: Principal): Promise<AffiliateDetailsT> {
    const account = await this.account(principal);
    const zeros: Record<string, number> = {};
    const today = Math.floor(this.clock().getTime() / DAY_MS) * DAY_MS;
    for (let i = 29; i >= 0; i--) zeros[`${new Date(today - i * DAY_MS).toISOString().slice(0, 19)}Z`] = 0;
    return {
      AffiliateBalance: 0,
      AffiliateUrl: `https://${this.cdnDomain}/?ref=${profileOf(account, this.cdnDomain).userId}`,
      ClaimBonusPercentage: PRICES.affiliateClaimBonusPercent,
      MinimumPayoutAmount: PRICES.affiliateMinimumPayout,
      AffiliateClicksChart: zeros,
      AffiliateSignupsChart: { ...zeros },
      AffiliateConversionsChart: { ...zeros },
    };
  }

  /** A closed month's statement as PDF; 404 for any other record. */
  async statementDocument(principal: Principal, id: number): Promise<Buffer> {
    const account = await this.account(principal);
    const record = (await this.ledger(account)).find((r) => r.id === id && r.recordType === RECORD_TYPE.month);
    if (!record) throw errors.notFound('billing record');
    return statementPdf(record.id, JSON.parse(record.details ?? '{}') as MonthCharges, this.party(account), new Date(record.at));
  }

  /** The invoice of a payment request (a closed month with charges) as PDF. */
  async invoiceDocument(principal: Principal, id: number): Promise<Buffer> {
    const account = await this.account(principal);
    const state = settle(account, await this.ledger(account)).find((s) => s.record.id === id);
    if (!state) throw errors.notFound('payment request');
    const issued = new Date(state.record.at);
    return invoicePdf(
      {
        id,
        month: state.record.month ?? monthOf(issued),
        amount: state.record.amount,
        taxRate: 0,
        issued,
        due: new Date(issued.getTime() + PRICES.paymentTermDays * DAY_MS),
        paidAt: state.paidAt === null ? null : new Date(state.paidAt),
        reference: referenceOf(account, id),
      },
      this.party(account),
    );
  }

  private async account(principal: Principal): Promise<Account> {
    const account = await this.store.accounts.get(principal.accountId);
    if (!account) throw errors.notFound('account');
    return account;
  }

  /** The ledger, oldest first, after closing the months that have ended since the last read. */
  private async ledger(account: Account): Promise<BillingRecord[]> {
    const records = await this.store.billing.list(account.id);
    const closed = new Set(records.map((r) => r.month));
    const open = monthsBetween(monthOf(new Date(account.createdAt)), monthOf(this.clock())).filter((m) => !closed.has(m));
    if (open.length === 0) return records;
    for (const month of open) await this.closeMonth(account.id, month);
    return this.store.billing.list(account.id);
  }

  /** Cents per month over the last twelve months the account existed in, the running one last. */
  private history(records: BillingRecord[], current: MonthCharges): Record<string, number> {
    const chart: Record<string, number> = {};
    const months = records.filter((r) => r.recordType === RECORD_TYPE.month).slice(-11);
    for (const r of months) chart[`${r.month}-01T00:00:00Z`] = cents(r.amount);
    chart[`${current.month}-01T00:00:00Z`] = cents(current.total);
    return chart;
  }

  private party(account: Account): DocumentParty {
    const profile = profileOf(account, this.cdnDomain);
    return { accountName: account.name, userId: profile.userId, email: profile.email };
  }
}

const referenceOf = (account: Account, id: number) => `EP-${account.id}-${id}`;

function recordView(r: BillingRecord): BillingRecordT {
  const month = r.recordType === RECORD_TYPE.month;
  return {
    Id: r.id,
    PaymentId: null,
    Amount: r.amount,
    Payer: r.payer,
    Timestamp: r.at,
    Type: r.recordType as BillingRecordT['Type'],
    InvoiceAvailable: month && r.amount > 0,
    DocumentDownloadUrl: month && r.amount > 0 ? `/billing/payment-request-invoice/${r.id}/pdf` : null,
    DetailedDocumentDownloadUrl: month ? `/billing/summary/${r.id}/pdf` : null,
  };
}

function requestView(account: Account, state: PaymentState): PaymentRequestT {
  const { record } = state;
  const issued = new Date(record.at);
  return {
    Id: record.id,
    Amount: record.amount,
    DateGenerated: record.at,
    DateDue: new Date(issued.getTime() + PRICES.paymentTermDays * DAY_MS).toISOString(),
    Description: `Usage of ${monthName(record.month ?? monthOf(issued))}`,
    Paid: state.paidAt !== null,
    DatePaid: state.paidAt,
    BillingInvoiceId: record.id,
    BillingInvoiceDownloadLink: `/billing/payment-request-invoice/${record.id}/pdf`,
    BankTransferReference: referenceOf(account, record.id),
    TaxRate: 0,
    TaxedAmount: record.amount,
  };
}
