/** What an account's history keeps: its audit log and its billing ledger. */

/** One write made through the API (see domain/audit/log.ts). Never holds a credential. */
export interface AuditEntry {
  id: number;
  accountId: number;
  /** UTC day of `at`, `YYYY-MM-DD`: the log is read a day at a time. */
  day: string;
  at: string;
  product: string;
  resourceType: string;
  resourceId: string | null;
  action: string;
  actorId: string;
  actorType: string;
  diff: string | null;
}

export interface AuditQuery {
  day: string;
  /** Each filter, when given, keeps the entries whose value is one of those listed. */
  products?: string[];
  resourceTypes?: string[];
  resourceIds?: string[];
  actorIds?: string[];
  descending: boolean;
  /** Only entries past this id, in the order asked for (a continuation). */
  after?: number;
  limit: number;
}

export interface AuditLog {
  /** Adds entries in the order given (their ids follow it). */
  add(entries: readonly Omit<AuditEntry, 'id'>[]): Promise<void>;
  list(accountId: number, query: AuditQuery): Promise<AuditEntry[]>;
  /** Deletes every account's entries of days before `day`; answers how many. */
  purgeBefore(day: string): Promise<number>;
}

/** A line of an account's ledger (see domain/billing/). */
export interface BillingRecord {
  id: number;
  accountId: number;
  /** The platform's BillingRecordType: 3 a month's statement, 6 funds added, 4 funds taken back. */
  recordType: number;
  amount: number;
  at: string;
  /** `YYYY-MM` for a month's statement, else null. */
  month: string | null;
  payer: string | null;
  /** A statement's charges, line by line (JSON); null for movements of funds. */
  details: string | null;
}

export interface BillingRecords {
  /** Adds a record; a statement for a month the account already has one for is not added (undefined). */
  add(record: Omit<BillingRecord, 'id'>): Promise<BillingRecord | undefined>;
  /** The account's records, oldest first. */
  list(accountId: number): Promise<BillingRecord[]>;
  get(accountId: number, id: number): Promise<BillingRecord | undefined>;
}
