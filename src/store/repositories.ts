/**
 * What both stores are outside a transaction: their repositories as fields, each call a unit of work
 * of its own (the store wraps each one: SQLite in its lock, PostgreSQL in its error translation),
 * and the controls of a transaction that mean nothing there.
 */
import type {
  AccessLog,
  OriginErrors,
  Accounts,
  ApiKeys,
  AuditLog,
  BillingRecords,
  DeadBlobs,
  DnsRecordRows,
  Documents,
  Files,
  Jobs,
  S3Uploads,
  StoreTx,
  UsageCounters,
} from './types.js';

/** The tables a unit of work reaches, a repository each: StoreTx without its controls. */
export type Repositories = Omit<StoreTx, 'lock' | 'nextId' | 'nextIds' | 'afterCommit'>;

/** `repos` with each repository replaced by `wrap(name, repository)`. */
export function eachRepository(repos: Repositories, wrap: (name: keyof Repositories, repo: object) => object): Repositories {
  const wrapped = {} as Record<keyof Repositories, object>;
  for (const name of Object.keys(repos) as (keyof Repositories)[]) wrapped[name] = wrap(name, repos[name]);
  return wrapped as Repositories;
}

export abstract class StoreRepositories implements Repositories {
  // Assigned all at once from a whole Repositories (the constructor's), so none can be missing.
  readonly accounts!: Accounts;
  readonly apiKeys!: ApiKeys;
  readonly docs!: Documents;
  readonly jobs!: Jobs;
  readonly files!: Files;
  readonly deadBlobs!: DeadBlobs;
  readonly usage!: UsageCounters;
  readonly audit!: AuditLog;
  readonly billing!: BillingRecords;
  readonly dnsRecords!: DnsRecordRows;
  readonly accessLog!: AccessLog;
  readonly originErrors!: OriginErrors;
  readonly s3Uploads!: S3Uploads;

  protected constructor(repos: Repositories) {
    Object.assign(this, repos);
  }

  async lock(): Promise<void> {
    throw new Error('lock() needs a transaction');
  }

  /** Outside a transaction a write is committed when its call returns: nothing to wait for. */
  afterCommit(fn: () => void): void {
    fn();
  }
}
