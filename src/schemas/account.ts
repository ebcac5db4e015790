/** The account as a user of the platform sees it: its profile, its closing, its audit log. */
import { Type, type Static } from 'typebox';
import { DateTime, Double, Int32, Int64, Nullable, StringEnum } from './common.js';

const text = (description: string) => Nullable(Type.String(), { description });

/** `GET /user`: the account's details, as the platform's user record has them. */
export const User = Type.Object(
  {
    Id: Type.String({ description: 'Identifier of the user: a GUID, the `UserId` its resources show.' }),
    AccountId: Type.String({ description: 'Identifier of the account (the same GUID: one user per account).' }),
    Email: Type.String({ description: 'Email address of the account, derived from its name and id (see README).' }),
    BillingEmail: Type.String({ description: 'Where invoices would be sent: the account email.' }),
    FirstName: Type.String({ description: "First word of the account's name." }),
    LastName: Type.String({ description: "The rest of the account's name; empty for a one-word name." }),
    StreetAddress: text('Street address; edgeplane keeps none (null).'),
    City: text('City; edgeplane keeps none (null).'),
    ZipCode: text('Postal code; edgeplane keeps none (null).'),
    Country: text('ISO 3166-1 alpha-2 country code; edgeplane keeps none (null), so no VAT applies.'),
    CompanyName: text('Company name; edgeplane keeps none (null).'),
    VATNumber: text('VAT number; edgeplane keeps none (null).'),
    ReceiveNotificationEmails: Type.Boolean({ description: 'edgeplane sends no email: false.' }),
    ReceivePromotionalEmails: Type.Boolean({ description: 'edgeplane sends no email: false.' }),
    Roles: Type.Array(Type.String(), { description: 'Roles of the API key that made the request: `FullAccess` or `ReadOnly`.' }),
    Balance: Double({ description: 'Funds of the account, as the operator set them.' }),
    TrialBalance: Double({ description: 'Free trial credit: edgeplane has no trial, 0.' }),
    BillingFreeUntilDate: DateTime({ description: 'End of the free period: the day the account was created (no trial).' }),
    DateJoined: DateTime({ description: 'When the account was created.' }),
    TrialBandwidthLimit: Int64({ description: 'Free trial traffic: 0, no trial.' }),
    TotalBandwidthUsed: Int64({ description: 'Bytes served by the account this month (pull zones and storage downloads), as billing counts them.' }),
    TwoFactorAuthenticationEnabled: Type.Boolean({ description: 'Accounts sign in with API keys only: false.' }),
    EmailVerified: Type.Boolean({ description: 'True: the address is edgeplane-made and needs no verification.' }),
    UnreadSupportTicketCount: Int32({ description: 'edgeplane has no support desk: 0.' }),
    DpaAccepted: Type.Boolean({ description: 'No data processing agreement to accept: false.' }),
    DpaVersionAccepted: Int32({ description: 'No agreement accepted: 0.' }),
    DpaDateAccepted: Nullable(Type.String({ format: 'date-time' }), { description: 'No agreement accepted: null.' }),
    Suspended: Type.Boolean({ description: 'True while the account has run out of funds (balance 0 or below).' }),
    PaymentsDisabled: Type.Boolean({ description: 'Funds are set by the operator, never paid online: true.' }),
    CardVerified: Type.Boolean({ description: 'No card on file: false.' }),
    HasCompleteBillingProfile: Type.Boolean({ description: 'No billing address kept: false.' }),
    IsSsoAccount: Type.Boolean({ description: 'No single sign-on: false.' }),
    BillingType: Int32({ description: 'How the account pays: 0, prepaid funds.' }),
    EnabledPaymentTypes: Type.Array(Type.String(), { description: 'Online payment methods: none.' }),
    FeatureFlags: Type.Array(Type.String(), { description: 'Features turned on for the account: none.' }),
    FreeTrialExtendedDate: Nullable(Type.String({ format: 'date-time' }), { description: 'No trial to extend: null.' }),
  },
  { additionalProperties: false, description: 'The user record of the account.' },
);
export type UserT = Static<typeof User>;

export const CloseAccountRequest = Type.Object(
  {
    Password: Nullable(Type.String({ maxLength: 256 }), {
      description:
        'The confirmation: the value of a full-access API key of the account (the one making the request will do). The account has no password; its key is its credential.',
    }),
    Reason: Nullable(Type.String({ maxLength: 2000 }), { description: 'Why the account is closed; not kept (the account and all it holds are deleted).' }),
  },
  { additionalProperties: false },
);

export const CloseAccountResponse = Type.Object(
  {
    Success: Type.Boolean({ description: 'True: the account is closed.' }),
    Message: Nullable(Type.String(), { description: 'What happened.' }),
  },
  { additionalProperties: false },
);

export const AUDIT_ORDERS = ['Ascending', 'Descending'] as const;

const filter = (description: string) =>
  Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100, description: `${description} Repeat the parameter for several values.` }));

export const AuditLogParams = Type.Object({
  date: Type.String({
    minLength: 1,
    maxLength: 40,
    description: 'The day to read, in UTC: `2026-01-15`, or a date-time whose UTC day is meant (`2026-01-15T10:00:00Z`).',
  }),
});

export const AuditLogQuery = Type.Object({
  Product: filter('Only entries of these products (`CDN`, `Storage`, `DNS`, `Stream`, `Containers`, `Account`).'),
  ResourceType: filter('Only entries about these kinds of resource (`PullZone`, `StorageZone`, `DnsZone`, `VideoLibrary`, `ContainerApp`, `ApiKey`, `User`).'),
  ResourceId: filter('Only entries about these resources (their ids).'),
  ActorId: filter('Only entries made with these API keys (their ids).'),
  Order: Type.Optional(StringEnum(AUDIT_ORDERS, { description: 'Newest first (`Descending`, the default) or oldest first.' })),
  ContinuationToken: Type.Optional(Type.String({ maxLength: 200, description: 'Where the previous page ended (its `ContinuationToken`).' })),
  Limit: Type.Optional(Int32({ minimum: 1, maximum: 10000, default: 1000, description: 'Entries per page.' })),
});
export type AuditLogQueryT = Static<typeof AuditLogQuery>;

export const AuditLogEntry = Type.Object(
  {
    Timestamp: DateTime({ description: 'When the write was answered.' }),
    Product: text('The part of the platform written to.'),
    ResourceType: text('The kind of resource written to.'),
    ResourceId: text('Its id; null when the write named none.'),
    ResourceOwner: text('The `UserId` of the account that owns it.'),
    Action: text('The operation, by its operationId in `/openapi.json` (`createPullZone`, `addDnsRecord`…).'),
    ActorId: text('The id of the API key that made the write (never its value).'),
    ActorType: text('What made the write: `ApiKey`.'),
    Diff: text('What the request changed, as JSON `{"Fields": [...]}`: the names of the body fields sent, never their values.'),
  },
  { additionalProperties: false },
);

export const AuditLogPage = Type.Object(
  {
    Logs: Nullable(Type.Array(AuditLogEntry), { description: 'The entries of this page.' }),
    HasMoreData: Type.Boolean({ description: 'True when entries follow: ask again with `ContinuationToken`.' }),
    ContinuationToken: text('Where this page ended; null when nothing follows.'),
    StartToken: text('Where this page started: sending it as `ContinuationToken` reads this page again.'),
  },
  { additionalProperties: false },
);
export type AuditLogPageT = Static<typeof AuditLogPage>;
