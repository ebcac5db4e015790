/**
 * Billing answers, as the platform's models have them: the account's funds and this month's
 * charges, its ledger, the charges of each pull zone, payment requests and the referral programme.
 */
import { Type, type Static } from 'typebox';
import { DateTime, Decimal, Double, Int32, Int64, IntEnum, Nullable } from './common.js';

/** The platform's BillingRecordType: 3 a month's usage, 4 funds taken back, 6 funds added (the others are payment methods edgeplane has none of). */
export const BILLING_RECORD_TYPES = [0, 1, 2, 3, 4, 5, 6, 7] as const;

export const BillingRecord = Type.Object(
  {
    Id: Int64({ description: 'Identifier of the record.' }),
    PaymentId: Nullable(Type.String(), { description: 'Reference of the payment: null, edgeplane takes no payments.' }),
    Amount: Double({ description: "A month's charges (type 3), or the funds added (type 6, positive) or taken back (type 4, negative)." }),
    Payer: Nullable(Type.String(), { description: 'Who moved the funds: `operator`; null for a month.' }),
    Timestamp: DateTime({ description: 'When the month was closed, or the funds moved.' }),
    Type: IntEnum(BILLING_RECORD_TYPES, { description: '3: a month (its statement); 6: funds added; 4: funds taken back.' }),
    InvoiceAvailable: Type.Boolean({ description: 'True for a month with charges: it has an invoice.' }),
    DocumentDownloadUrl: Nullable(Type.String(), { description: "The month's invoice (PDF), relative to the API's base; null without one." }),
    DetailedDocumentDownloadUrl: Nullable(Type.String(), {
      description: "The month's statement, charge by charge (PDF), relative to the API's base; null for movements of funds.",
    }),
  },
  { additionalProperties: false },
);
export type BillingRecordT = Static<typeof BillingRecord>;

const UsageBreakdown = Nullable(
  Type.Object(
    {
      Usage: Decimal({ description: 'Charge in US dollars.' }),
      TotalUnits: Int64({ description: 'Units billed.' }),
      MeasuringUnit: Nullable(Type.String(), { description: 'What a unit is.' }),
    },
    { additionalProperties: false },
  ),
  { description: 'Not sold by edgeplane: null.' },
);

const SavedPaymentMethod = Type.Object(
  {
    Token: Nullable(Type.String()),
    ImageUrl: Nullable(Type.String()),
    ExpirationDate: Nullable(Type.String()),
    LastFour: Nullable(Type.String()),
    Email: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

const charge = (what: string) => Double({ description: `Charges this month for ${what}, in US dollars.` });
const none = (what: string) => Double({ description: `Charges this month for ${what}: edgeplane does not sell it, 0.` });
const noneDecimal = (what: string) => Decimal({ description: `Charges this month for ${what}: edgeplane does not sell it, 0.` });
const count = (what: string) => Int64({ description: what });

export const Billing = Type.Object(
  {
    Balance: Double({ description: 'Funds of the account, as the operator set them; charges are not taken from them (see README).' }),
    ThisMonthCharges: Double({ description: 'Charges of the running month so far, in US dollars.' }),
    LastRechargeBalance: Double({ description: 'The last funds added; 0 if none were.' }),
    AvailableBalance: Double({
      description:
        "What the account can still spend: the balance less every closed statement and the running month's charges. At 0 or below its pull zones stop serving.",
    }),
    CouponBalance: Decimal({ description: 'Coupon credit: edgeplane has no coupons, 0.' }),
    MonthlyCouponUsage: Decimal({ description: 'Coupon credit used this month: 0.' }),
    BillingRecords: Nullable(Type.Array(BillingRecord), { description: 'The ledger, newest first: closed months and movements of funds.' }),
    BillingHistoryChart: Nullable(Type.Record(Type.String(), Int64()), {
      description: 'Charges per month over the last twelve (the running one included), in cents, keyed by the first instant of the month.',
    }),
    MonthlyChargesEUTraffic: charge('traffic served in Europe'),
    MonthlyChargesUSTraffic: charge('traffic served in North America'),
    MonthlyChargesASIATraffic: charge('traffic served in Asia and Oceania'),
    MonthlyChargesAFTraffic: charge('traffic served in Africa'),
    MonthlyChargesSATraffic: charge('traffic served in South America'),
    MonthlyChargesStorage: charge('files kept in storage zones'),
    MonthlyChargesDNS: charge('DNS queries answered'),
    MonthlyChargesOptimizer: none('the image optimizer'),
    MonthlyChargesTranscribe: none('transcription'),
    MonthlyChargesPremiumEncoding: noneDecimal('premium encoding'),
    MonthlyChargesExtraPullZones: none('pull zones beyond an allowance'),
    MonthlyChargesExtraStorageZones: none('storage zones beyond an allowance'),
    MonthlyChargesExtraDnsZones: none('DNS zones beyond an allowance'),
    MonthlyChargesExtraVideoLibraries: none('video libraries beyond an allowance'),
    MonthlyChargesScripting: none('edge scripting'),
    MonthlyChargesScriptingRequests: none('edge script requests'),
    MonthlyChargesScriptingCpu: none('edge script CPU time'),
    MonthlyChargesDrm: none('DRM'),
    MonthlyChargesManagedContainers: noneDecimal('container applications'),
    MonthlyMcCpu: UsageBreakdown,
    MonthlyMcMemory: UsageBreakdown,
    MonthlyMcIp: UsageBreakdown,
    MonthlyMcIngressTraffic: UsageBreakdown,
    MonthlyMcEgressTraffic: UsageBreakdown,
    MonthlyMcVolumes: UsageBreakdown,
    MonthlyChargesShield: noneDecimal('DDoS protection'),
    MonthlyChargesTaxes: Decimal({ description: 'Taxes this month: the account has no country, so none.' }),
    MonthlyChargesWebSockets: noneDecimal('WebSockets'),
    MonthlyChargesDB: noneDecimal('databases'),
    MonthlyChargesLoadBalancer: noneDecimal('load balancers'),
    MonthlyDBWrites: UsageBreakdown,
    MonthlyDBReads: UsageBreakdown,
    MonthlyDBStorage: UsageBreakdown,
    MonthlyDBReplica: UsageBreakdown,
    MonthlyBandwidthUsed: count('Bytes served this month: pull zones and storage downloads.'),
    MonthlyDnsSmartQueriesServed: count('Queries answered this month by smart records.'),
    MonthlyDnsNormalQueriesServed: count('Queries answered this month by other records.'),
    MonthlyTranscriptionMinutes: count('Minutes transcribed this month: 0.'),
    MonthlyPremiumEncodingBillableMinutes: count('Minutes encoded on the premium tier this month: 0.'),
    MonthlyDRMLicensesIssued: count('DRM licenses issued this month: 0.'),
    MonthlyScriptingRequests: count('Edge script requests this month: 0.'),
    MonthlyScriptingCpuTime: count('Edge script CPU time this month, in milliseconds: 0.'),
    BillingEnabled: Type.Boolean({ description: 'True: charges are counted.' }),
    MinimumMonthlyCommit: Double({ description: 'Minimum monthly spend: none, 0.' }),
    VATRate: Decimal({ description: 'VAT in percent: 0, the account has no country.' }),
    NextMonthVATRate: Decimal({ description: 'VAT next month, in percent: 0.' }),
    AutomaticPaymentImageUrl: Nullable(Type.String(), { description: 'No automatic payment: null.' }),
    AutomaticPaymentCardType: Nullable(Type.String(), { description: 'No automatic payment: null.' }),
    AutomaticPaymentIdentifier: Nullable(Type.String(), { description: 'No automatic payment: null.' }),
    AutomaticPaymentAmount: Decimal({ description: 'No automatic payment: 0.' }),
    AutomaticRechargeTreshold: Decimal({ description: 'No automatic payment: 0.' }),
    AutomaticRechargeEnabled: Type.Boolean({ description: 'No automatic payment: false.' }),
    AutomaticPaymentFailureCount: Int32({ description: 'No automatic payment: 0.' }),
    SavedPaymentMethods: Nullable(Type.Array(SavedPaymentMethod), { description: 'Saved payment methods: none, edgeplane takes no payments.' }),
    EUUSDiscount: Int32({ description: 'Account-wide discount on European and North American traffic, in percent: 0 (discounts are per pull zone).' }),
    SouthAmericaDiscount: Int32({ description: 'Account-wide discount on South American traffic: 0.' }),
    AfricaDiscount: Int32({ description: 'Account-wide discount on African traffic: 0.' }),
    AsiaOceaniaDiscount: Int32({ description: 'Account-wide discount on Asian and Oceanian traffic: 0.' }),
    OptimizerMonthlyPrice: Decimal({ description: 'List price of the image optimizer per pull zone and month (not charged, see README).' }),
    DrmBaseMonthlyPrice: Decimal({ description: 'List price of DRM per video library and month.' }),
    DrmCostPerLicense: Nullable(Decimal(), { description: 'List price of a DRM license.' }),
  },
  { additionalProperties: false },
);
export type BillingT = Static<typeof Billing>;

export const BillingSummaryItem = Type.Object(
  {
    PullZoneId: Int64({ description: 'The pull zone.' }),
    MonthlyUsage: Decimal({ description: 'What its traffic cost this month, in US dollars.' }),
    MonthlyBandwidthUsed: Int64({ description: 'Bytes it served this month.' }),
  },
  { additionalProperties: false },
);
export type BillingSummaryItemT = Static<typeof BillingSummaryItem>;

export const PaymentRequest = Type.Object(
  {
    Id: Int64({ description: "Identifier of the request: the id of the month's record it bills." }),
    Amount: Decimal({ description: "The month's charges, in US dollars." }),
    DateGenerated: DateTime({ description: 'When the month was closed.' }),
    DateDue: DateTime({ description: 'When it is due: 14 days later.' }),
    Description: Nullable(Type.String(), { description: 'What it is for.' }),
    Paid: Type.Boolean({ description: "True once the account's recorded funds cover it (see README)." }),
    DatePaid: Nullable(Type.String({ format: 'date-time' }), { description: 'When it was covered; null while it is not.' }),
    BillingInvoiceId: Nullable(Int64(), { description: 'The invoice: the same id.' }),
    BillingInvoiceDownloadLink: Nullable(Type.String(), { description: "The invoice (PDF), relative to the API's base." }),
    BankTransferReference: Nullable(Type.String(), { description: 'Reference to quote with a payment.' }),
    TaxRate: Decimal({ description: 'VAT in percent: 0.' }),
    TaxedAmount: Decimal({ description: 'The amount with VAT.' }),
  },
  { additionalProperties: false },
);
export type PaymentRequestT = Static<typeof PaymentRequest>;

const Chart = (description: string) => Nullable(Type.Record(Type.String(), Int64()), { description });

export const AffiliateDetails = Type.Object(
  {
    AffiliateBalance: Decimal({ description: 'Referral credit earned: 0, edgeplane tracks no referrals.' }),
    AffiliateUrl: Nullable(Type.String(), { description: "The account's referral link." }),
    ClaimBonusPercentage: Decimal({ description: 'Bonus, in percent, when referral credit is turned into funds.' }),
    MinimumPayoutAmount: Decimal({ description: 'Least referral credit paid out, in US dollars.' }),
    AffiliateClicksChart: Chart('Clicks on the link per day over the last 30 days: all 0.'),
    AffiliateSignupsChart: Chart('Sign-ups through the link per day: all 0.'),
    AffiliateConversionsChart: Chart('Paying sign-ups per day: all 0.'),
  },
  { additionalProperties: false },
);
export type AffiliateDetailsT = Static<typeof AffiliateDetails>;

export const BillingRecordParams = Type.Object({ billingRecordId: Int64({ minimum: 1, description: "Identifier of a month's record (type 3)." }) });
