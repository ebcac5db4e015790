/**
 * The storage boundary. Routes and domain code see only this interface, so SQLite and PostgreSQL
 * are interchangeable. Resources are stored as JSON documents plus the few columns the store must
 * index itself (owner, unique name, parent and link ids); every query is scoped by account, which
 * makes cross-account reads impossible by construction rather than by convention.
 */

export type ResourceKind =
  | 'pullZone'
  | 'storageZone'
  | 'dnsZone'
  | 'dnsRecord'
  | 'videoLibrary'
  | 'containerApp'
  /** An image registry of the container API, with its sealed credentials. */
  | 'containerRegistry'
  /** Where a container application's logs are forwarded; one per application, by its id. */
  | 'logForwarding'
  /** A pull zone hostname, indexed by value so a hostname belongs to one zone platform-wide. */
  | 'hostname'
  /** Remembers a seed item already applied, so a seed can be applied again safely. */
  | 'seedMark'
  /** The latest record scan of a domain, per account (`POST /dnszone/records/scan`), indexed by its domain. */
  | 'dnsRecordScan'
  /** An image of a video library (its watermark, live thumbnail, live watermark): where its bytes are. */
  | 'videoLibraryImage'
  /** A pending certificate challenge of a pull zone hostname (DNS or HTTP), until completed or expired. */
  | 'certificateChallenge'
  /** The wildcard certificate issued for a DNS zone (`POST /dnszone/{id}/certificate/issue`), its key sealed. */
  | 'zoneCertificate';

export interface Account {
  id: number;
  name: string;
  balance: number;
  createdAt: string;
}

export type KeyKind = 'account' | 'personal';

export interface ApiKeyRecord {
  id: number;
  accountId: number;
  kind: KeyKind;
  roles: string[];
  /** The key value, sealed (see security/secrets.ts). */
  sealedKey: string;
  createdAt: string;
}

export interface StoredDoc<T> {
  id: string;
  accountId: number;
  version: number;
  doc: T;
}

export interface NewDoc<T> {
  id: string;
  accountId: number;
  /** Kept unique per kind across all accounts (the platform's names are global). */
  name?: string | null;
  parentId?: string | null;
  linkId?: string | null;
  doc: T;
}

export interface DocChange<T> {
  id: string;
  /** The version read; the write fails (returns false) if someone else wrote in between. */
  version: number;
  name?: string | null;
  parentId?: string | null;
  linkId?: string | null;
  doc: T;
}

export interface ListQuery {
  offset: number;
  limit: number;
  parentId?: string;
  linkId?: string;
  /** Case-insensitive substring of the indexed name. */
  search?: string;
  /** Only documents with an indexed name (a deleted storage zone gives its name up, keeping its row). */
  named?: boolean;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** Raised by implementations when a unique name is already used; the domain turns it into a 400. */
export class NameTakenError extends Error {
  constructor(
    readonly kind: ResourceKind,
    readonly taken: string,
  ) {
    super(`${kind} name "${taken}" is taken`);
  }
}

export interface Accounts {
  create(name: string, balance: number, now: Date): Promise<Account>;
  get(id: number): Promise<Account | undefined>;
  list(): Promise<Account[]>;
  count(): Promise<number>;
  setBalance(id: number, balance: number): Promise<boolean>;
  /** Deletes the account with everything that references it (keys, documents, ledger, audit log). */
  remove(id: number): Promise<boolean>;
}

export interface ApiKeys {
  create(key: { accountId: number; kind: KeyKind; roles: string[]; lookupHash: string; sealedKey: string; createdAt: string }): Promise<ApiKeyRecord>;
  findByLookupHash(hash: string): Promise<ApiKeyRecord | undefined>;
  list(accountId: number, offset: number, limit: number): Promise<Page<ApiKeyRecord>>;
  revoke(accountId: number, id: number, now: Date): Promise<boolean>;
}

export interface Documents {
  get<T>(kind: ResourceKind, accountId: number, id: string): Promise<StoredDoc<T> | undefined>;
  /** Operator and job access, not scoped by account: never reachable from an account's request. */
  getAnyAccount<T>(kind: ResourceKind, id: string): Promise<StoredDoc<T> | undefined>;
  /** Every document of a kind, all accounts, in the order they were added (for the data planes' in-memory views). */
  scan<T>(kind: ResourceKind, offset: number, limit: number): Promise<StoredDoc<T>[]>;
  list<T>(kind: ResourceKind, accountId: number, query: ListQuery): Promise<Page<StoredDoc<T>>>;
  /** Whether any account uses the name: names of these kinds are platform-wide. */
  nameExists(kind: ResourceKind, name: string): Promise<boolean>;
  /**
   * Whether the document exists and holds its name (a tombstone gives its name up). Inside a
   * transaction it also keeps a concurrent delete of the document waiting until the end.
   */
  holdsName(kind: ResourceKind, id: string): Promise<boolean>;
  /** The document holding a platform-wide name (case-insensitive), whichever account owns it: for the data planes, which know a zone by name. */
  findByName<T>(kind: ResourceKind, name: string): Promise<StoredDoc<T> | undefined>;
  insert<T>(kind: ResourceKind, doc: NewDoc<T>): Promise<void>;
  update<T>(kind: ResourceKind, accountId: number, change: DocChange<T>): Promise<boolean>;
  delete(kind: ResourceKind, accountId: number, id: string): Promise<boolean>;
}

export interface Job {
  id: number;
  kind: string;
  payload: unknown;
  /** Epoch milliseconds. */
  runAt: number;
  attempts: number;
}

export interface Jobs {
  enqueue(kind: string, payload: unknown, runAt: number): Promise<number>;
  /**
   * Leases up to `limit` due jobs to `worker` until `leaseUntil`; a job whose lease ran out (its
   * worker died) becomes claimable again, so no job is lost and none runs twice at the same time.
   */
  claimDue(now: number, limit: number, worker: string, leaseUntil: number): Promise<Job[]>;
  /** Removes a finished job; only its lease holder may. */
  complete(id: number, worker: string): Promise<void>;
  /** Puts a failed job back for a later attempt. */
  retry(id: number, worker: string, runAt: number, error: string): Promise<void>;
  count(now: number): Promise<{ pending: number; leased: number }>;
  /** Every job of a kind whose payload matches, for tests and cancellation. */
  cancel(kind: string, matches: (payload: unknown) => boolean): Promise<number>;
}

/** One stretch of a file's bytes in the files backend; a file is its segments in order. */
export interface BlobSegment {
  key: string;
  size: number;
}

/**
 * A file or directory of a storage zone. Paths are relative to the zone's root, without a leading
 * slash; a directory's path ends with `/` (`images/2024/`), a file's does not (`images/2024/a.jpg`).
 */
export interface FileRecord {
  zoneId: string;
  accountId: number;
  path: string;
  /** The directory holding it: `images/2024/`, or `` at the root. */
  parent: string;
  isDirectory: boolean;
  size: number;
  /** Lowercase hex; null for directories. */
  sha256: string | null;
  md5: string | null;
  contentType: string | null;
  /** Stable identity of this version of the object (the platform's `Guid`). */
  guid: string;
  blobs: BlobSegment[];
  /** User metadata (S3 `x-amz-meta-*`), lowercase names. */
  metadata: Record<string, string> | null;
  createdAt: string;
  changedAt: string;
}

export interface FileUsage {
  files: number;
  bytes: number;
}

/** A zone's closing figures of one day (YYYY-MM-DD). */
export interface DailyFileUsage extends FileUsage {
  day: string;
}

export interface FileRange {
  /** Only paths that start with this. */
  prefix: string;
  /** Only paths after this one (exclusive), in byte order. */
  after?: string;
  limit: number;
  /** Leave directory entries out. */
  filesOnly?: boolean;
}

/** File metadata of storage zones; the bytes are in the files backend (src/files/). */
export interface Files {
  get(zoneId: string, path: string): Promise<FileRecord | undefined>;
  /** The entries directly inside `parent`, in name order. */
  children(zoneId: string, parent: string): Promise<FileRecord[]>;
  /** Entries in path order (byte order), for paged listings. */
  range(zoneId: string, range: FileRange): Promise<FileRecord[]>;
  /** The entries at these paths that exist, in no particular order. */
  getMany(zoneId: string, paths: string[]): Promise<FileRecord[]>;
  /** Whether an entry of the zone with this guid has the blob `key` among its segments (blob keys carry the guid: see the files sweeper). */
  usesBlob(zoneId: string, guid: string, key: string): Promise<boolean>;
  /** Creates or replaces the entry at `record.path`. */
  put(record: FileRecord): Promise<void>;
  /** Adds the directory entries that are missing (each path ends with `/`); answers how many. */
  ensureDirectories(zoneId: string, accountId: number, paths: string[], now: string): Promise<number>;
  remove(zoneId: string, path: string): Promise<FileRecord | undefined>;
  /** Removes up to `limit` entries whose path starts with `prefix` (`` = the whole zone); answers them. */
  removeUnder(zoneId: string, prefix: string, limit: number): Promise<FileRecord[]>;
  usage(zoneIds: string[]): Promise<Map<string, FileUsage>>;
  /** Adds to a zone's counters, and records the day's closing figures for its statistics. */
  changeUsage(zoneId: string, accountId: number, delta: FileUsage, day: string): Promise<void>;
  /** The closing figures of each day on which the zone changed, from `fromDay` to `toDay` (YYYY-MM-DD). */
  dailyUsage(zoneId: string, fromDay: string, toDay: string): Promise<DailyFileUsage[]>;
  /** The last closing figures before `day` (what a chart starts from). */
  usageBefore(zoneId: string, day: string): Promise<FileUsage | undefined>;
  /**
   * `dailyUsage` and `usageBefore` of every storage zone an account holds, in one read: for each
   * zone with figures, its last closing figures before `fromDay` and those from `fromDay` to
   * `toDay`, by zone then day. Billing reads it: an account's cost must not grow with its idle zones.
   */
  accountDailyUsage(accountId: number, fromDay: string, toDay: string): Promise<(DailyFileUsage & { zoneId: string })[]>;
}

/**
 * Blobs no file points at any more (replaced, deleted), removed from the backend after a grace
 * period so that reads already streaming them finish. A key ending in `/` stands for every blob under it.
 */
export interface DeadBlobs {
  add(keys: string[], deadAt: number): Promise<void>;
  due(before: number, limit: number): Promise<string[]>;
  forget(keys: string[]): Promise<void>;
}

/** Counters the planes keep per hour (bytes served, requests, queries), added to as they happen. */
export interface UsageCounters {
  add(entries: UsageEntry[]): Promise<void>;
  /** Sums per hour of `metric` for `subject`, from `fromHour` to `toHour` inclusive (epoch hours). */
  series(subject: string, metrics: string[], fromHour: number, toHour: number): Promise<UsageEntry[]>;
  /**
   * For every resource of `kind` the account holds (subject `kind:id`), the sum of each metric from
   * `fromHour` to `toHour`; resources without any are left out.
   */
  accountTotals(kind: ResourceKind, accountId: number, metrics: string[], fromHour: number, toHour: number): Promise<ResourceTotal[]>;
}

export interface ResourceTotal {
  id: string;
  metric: string;
  value: number;
}

export interface UsageEntry {
  /** What is counted: `storageZone:12`, `pullZone:7`, `dnsZone:3`. */
  subject: string;
  metric: string;
  /** Epoch hour (ms / 3,600,000, floored). */
  hour: number;
  value: number;
}

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

/**
 * The requests one flush of the edge's access log wrote for a pull zone whose logging is on (see
 * domain/edge/usage/access-log.ts): a chunk of lines, so a busy zone costs one row a second.
 */
export interface AccessLogEntry {
  id: number;
  accountId: number;
  pullZoneId: number;
  /** Epoch milliseconds of the newest line. */
  at: number;
  /** How many lines `entry` holds. */
  lines: number;
  /** One JSON object per line, oldest first, client addresses already anonymized as the zone asks. */
  entry: string;
}

export interface AccessLog {
  append(entries: Omit<AccessLogEntry, 'id'>[]): Promise<void>;
  /** A zone's chunks newest first, from the one before `beforeId` when given. */
  newest(pullZoneId: number, options: { beforeId?: number | undefined; limit: number }): Promise<AccessLogEntry[]>;
  /** Keeps, of each zone listed, the newest chunks that hold its newest `keep` lines (0 removes them all); answers how many chunks went. */
  trim(pullZoneIds: number[], keep: number): Promise<number>;
}

/** An S3 multipart upload in progress (see domain/s3/multipart.ts). */
export interface S3Upload {
  uploadId: string;
  zoneId: string;
  accountId: number;
  key: string;
  contentType: string | null;
  /** `x-amz-meta-*` given when the upload was created, lowercase names. */
  metadata: Record<string, string> | null;
  createdAt: string;
}

/** A part acknowledged to the client: its bytes are a blob of the files backend. */
export interface S3UploadPart {
  uploadId: string;
  partNumber: number;
  blobKey: string;
  size: number;
  /** Lowercase hex, of the part's bytes. */
  md5: string;
  sha256: string;
  uploadedAt: string;
}

export interface S3Uploads {
  create(upload: S3Upload): Promise<void>;
  get(zoneId: string, uploadId: string): Promise<S3Upload | undefined>;
  /** A zone's uploads whose key starts with `prefix`, in (key, uploadId) order, after `after`. */
  list(zoneId: string, query: { prefix: string; after?: { key: string; uploadId: string } | undefined; limit: number }): Promise<S3Upload[]>;
  /** Records a part, replacing the one with its number; answers the one replaced, or undefined when the upload is gone. */
  putPart(part: S3UploadPart): Promise<{ replaced: S3UploadPart | undefined } | undefined>;
  /** An upload's parts numbered above `after`, in number order. */
  parts(uploadId: string, after: number, limit: number): Promise<S3UploadPart[]>;
  /** Removes an upload and its parts; answers the parts, or undefined when there was no such upload. */
  remove(uploadId: string): Promise<S3UploadPart[] | undefined>;
  /** Removes every upload of a zone (its blobs go with the zone's prefix). */
  removeZone(zoneId: string): Promise<void>;
  /** Whether an upload of the zone with this id has a part whose blob is `key` (the files sweeper asks: part blobs carry the id). */
  usesBlob(zoneId: string, uploadId: string, key: string): Promise<boolean>;
}

/** The installation's local certificate authority as stored: one per database, its key sealed. */
export interface StoredAuthority {
  installationId: string;
  /** The root certificate, PEM. */
  certificate: string;
  /** The root's PKCS#8 private key, PEM, sealed with the master key. */
  sealedKey: string;
  createdAt: string;
}

/** Where the local certificate authority lives (src/domain/certificates/). It survives wipe(): see the README. */
export interface CertificateAuthorityRecords {
  get(): Promise<StoredAuthority | undefined>;
  /** Stores `authority` unless one is stored already; answers the one that is (the first writer's, when two race). */
  createOnce(authority: StoredAuthority): Promise<StoredAuthority>;
  /** A certificate the authority issued and keeps, by what it was issued for (see issued-leaves.ts). */
  keptLeaf(key: string): Promise<StoredLeaf | undefined>;
  /** Keeps `leaf` under `key`, replacing what was kept there. */
  keepLeaf(key: string, leaf: StoredLeaf): Promise<void>;
}

export interface StoredLeaf {
  /** The authority that signed it: a leaf of another root (a dump loaded since) does not count. */
  installationId: string;
  certificate: string;
  /** Its private key, PEM, sealed with the master key. */
  sealedKey: string;
  serial: string;
  notBefore: string;
  notAfter: string;
}

/** A DNS record to store: its row's columns are copies of record fields, for the queries that filter on them. */
export interface NewZoneRecord<T> {
  id: number;
  /** The record's type (its index in the platform's list of types). */
  type: number;
  /** What the record points at (a pull zone, a script), or null. */
  linkId: number | null;
  doc: T;
}

/**
 * The records of DNS zones, a row each, in each zone's order (the order they were added). The
 * zone itself is a document; its records are reached through it (the domain reads the zone,
 * scoped by account, before its records), so these calls are keyed by zone id.
 */
export interface DnsRecordRows {
  /** A page of the zone's records in order; `type` keeps one type. */
  list<T>(zoneId: number, query: { type?: number | undefined; offset: number; limit: number }): Promise<Page<T>>;
  /** Every record of each zone listed, in order (zones without records are left out). */
  ofZones<T>(zoneIds: readonly number[]): Promise<Map<number, T[]>>;
  get<T>(zoneId: number, id: number): Promise<T | undefined>;
  /** Adds records after the zone's last one, in the order given. */
  append<T>(accountId: number, zoneId: number, records: readonly NewZoneRecord<T>[]): Promise<void>;
  /** Rewrites a record in its place; false when the zone has no record with its id. */
  replace<T>(zoneId: number, record: NewZoneRecord<T>): Promise<boolean>;
  remove(zoneId: number, id: number): Promise<boolean>;
  /** Removes every record of the zone. */
  removeZone(zoneId: number): Promise<void>;
  /** The account's records that point at `linkId` (see NewZoneRecord.linkId), with their zone. */
  linkedTo<T>(accountId: number, linkId: number): Promise<{ zoneId: number; doc: T }[]>;
}

/** What a unit of work can touch. */
export interface StoreTx {
  accounts: Accounts;
  apiKeys: ApiKeys;
  docs: Documents;
  jobs: Jobs;
  files: Files;
  deadBlobs: DeadBlobs;
  usage: UsageCounters;
  audit: AuditLog;
  billing: BillingRecords;
  dnsRecords: DnsRecordRows;
  accessLog: AccessLog;
  s3Uploads: S3Uploads;
  /**
   * Holds an exclusive lock named `name` until the transaction ends, for decisions that span rows
   * ("is the store empty?"). SQLite transactions are already serialized, so there it is free.
   */
  lock(name: string): Promise<void>;
  /** Next integer id of a sequence (one per resource kind, plus hostnames, edge rules...). */
  nextId(sequence: string): Promise<number>;
  /** `count` new ids of a sequence, ascending, in one step (for imports that add thousands). */
  nextIds(sequence: string, count: number): Promise<number[]>;
  /**
   * Runs `fn` once the transaction has committed (durably), before its client is answered; never if
   * it rolls back. Outside a transaction, at once. For in-memory views that must show a write as
   * soon as it is acknowledged (the DNS plane's zones).
   */
  afterCommit(fn: () => void): void;
}

export interface IdempotencyRecord {
  fingerprint: string;
  /** Null while the first request with the key is still in flight. */
  status: number | null;
  /** The first response's body, sealed: a create's response can carry a credential. */
  sealedResponse: string | null;
  /** Epoch milliseconds of the claim; it also identifies the claim to complete or release. */
  createdAt: number;
}

export interface IdempotencyClaim {
  accountId: number;
  key: string;
  fingerprint: string;
  now: number;
  /** Records created at or before these instants no longer count: completed ones, and ones in flight. */
  completedBefore: number;
  inFlightBefore: number;
}

/**
 * Responses remembered for `Idempotency-Key` retries. Not part of dumps: they are a short-lived
 * cache of answers, not resources.
 */
export interface IdempotencyKeys {
  /** Takes the key for a new request; false when a record that still counts holds it. */
  claim(claim: IdempotencyClaim): Promise<boolean>;
  find(accountId: number, key: string): Promise<IdempotencyRecord | undefined>;
  /** Records the response of the claim made at `claimedAt`; false if that claim is gone. */
  complete(accountId: number, key: string, claimedAt: number, status: number, sealedResponse: string): Promise<boolean>;
  /** Gives up the claim made at `claimedAt` (the request failed), so a retry runs afresh. */
  release(accountId: number, key: string, claimedAt: number): Promise<void>;
  /** Deletes the records created at or before `cutoff`. */
  purge(cutoff: number): Promise<number>;
}

/** One line of a store dump (`edgeplane export`): rows as stored, credentials still sealed. */
export type DumpRecord =
  | { type: 'header'; format: 'edgeplane-dump'; version: 1; dialect: 'sqlite' | 'postgres'; createdAt: string }
  | { type: 'account'; id: number; name: string; balance: number; createdAt: string }
  | {
      type: 'apiKey';
      id: number;
      accountId: number;
      kind: KeyKind;
      roles: string[];
      lookupHash: string;
      sealedKey: string;
      createdAt: string;
      revokedAt: string | null;
    }
  | {
      type: 'resource';
      kind: ResourceKind;
      id: string;
      accountId: number;
      name: string | null;
      parentId: string | null;
      linkId: string | null;
      version: number;
      doc: string;
    }
  | { type: 'sequence'; name: string; last: number }
  | { type: 'job'; kind: string; payload: string; runAt: number; attempts: number }
  | ({ type: 'file' } & FileRecord)
  | { type: 'storageUsage'; zoneId: string; accountId: number; files: number; bytes: number }
  | { type: 'storageUsageDay'; zoneId: string; day: string; files: number; bytes: number }
  | { type: 'deadBlob'; key: string; deadAt: number }
  | ({ type: 'usage' } & UsageEntry)
  | ({ type: 'auditEntry' } & AuditEntry)
  | ({ type: 'billingRecord' } & BillingRecord)
  /** A DNS record of a zone (dumped after the resources, its zone among them). */
  | { type: 'dnsRecord'; zoneId: number; id: number; accountId: number; position: number; recordType: number; linkId: number | null; doc: string }
  | ({ type: 'certificateAuthority' } & StoredAuthority)
  /** `lines` is absent in dumps from before chunked logs: one line. */
  | ({ type: 'accessLogEntry' } & Omit<AccessLogEntry, 'lines'> & { lines?: number })
  | ({ type: 's3Upload' } & S3Upload)
  | ({ type: 's3UploadPart' } & S3UploadPart);

/** A write that can make a value cached in memory stale. */
export type StoreChange =
  | { type: 'doc'; kind: ResourceKind; accountId: number; id: string }
  | { type: 'apiKey'; accountId: number; id: number }
  /** Anything may have changed: a wipe, a load, a write by another process, or announcements missed. */
  | { type: 'all' };

/**
 * Lets in-process caches (authenticated keys, serialized views) stay correct: every write is
 * reported as it is made, before it commits, and a generation number moves with each one. A cache
 * reads the generation before it computes a value and stores the value only if the generation has
 * not moved since, so a write that raced the computation can never leave a stale entry behind.
 *
 * Every store offers one, and it also tells the data planes what to reload (a revoked password, a
 * new DNS record). Writes by other processes are noticed too: on SQLite through its data version
 * (an `edgeplane keys revoke` next to the server), on PostgreSQL through announcements on commit
 * that every instance listens to — where a lost connection counts as "everything changed".
 */
export interface ChangeFeed {
  /** The current generation; reading it first notices writes committed by other processes. */
  generation(): number;
  subscribe(listener: (change: StoreChange) => void): void;
}

/**
 * What a caller waits for before it answers: an API write request collects the durability of its
 * transactions and answers once all of it is done, so everything it writes — the operation, then its
 * audit entry — can share one group commit and one disk sync instead of one each.
 */
export interface Durability {
  add(durable: Promise<void>): void;
}

export interface Store extends StoreTx {
  readonly dialect: 'sqlite' | 'postgres';
  readonly certificateAuthority: CertificateAuthorityRecords;
  readonly idempotency: IdempotencyKeys;
  /** What changed, so in-process caches stay correct (see ChangeFeed). */
  readonly changes: ChangeFeed;
  /**
   * Runs `work` atomically: all of its writes commit together, or none do. Resolves once they are
   * durable — or, given a `durability`, as soon as what runs next sees them, handing it the promise
   * of their durability (SQLite; PostgreSQL commits before it resolves either way).
   */
  transaction<T>(work: (tx: StoreTx) => Promise<T>, durability?: Durability): Promise<T>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Deletes every row and restarts every id sequence: a store as new. */
  wipe(): Promise<void>;
  /** Every row, in an order `load` can replay (accounts before what they own). */
  dump(): AsyncIterable<DumpRecord>;
  /** Replays a dump into this store, which must be empty; all or nothing. */
  load(records: AsyncIterable<DumpRecord>): Promise<number>;
  /** Live figures for the operator's metrics; cheap, no query. */
  stats(): StoreStats;
}

export type StoreStats =
  /** `openTransactions` counts those not yet answered: running, waiting for the write lock, or for their batch's COMMIT. */
  | { dialect: 'sqlite'; openTransactions: number; locked: boolean }
  /** Connections open, idle ones among them, and callers waiting for one. */
  | { dialect: 'postgres'; poolTotal: number; poolIdle: number; poolWaiting: number };
