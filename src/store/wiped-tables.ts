/**
 * What `Store.wipe` does to each table, the same for both dialects: every table of the migrations
 * is emptied, emptied with the accounts it belongs to, or kept on purpose. A test
 * (test/store/table-lists.test.ts) reads the migrated schema and fails on a table none of these
 * names, so a new table is a decision, not an oversight.
 */

/** Emptied by name, in an order that deletes what points at a row before the row. */
export const WIPED_TABLES = [
  'api_keys',
  'resources',
  'jobs',
  'sequences',
  'files',
  'storage_usage',
  'storage_usage_daily',
  'usage_counters',
  'audit_log',
  'billing_records',
  'dns_records',
  'access_log',
  's3_upload_parts',
  's3_uploads',
  'accounts',
] as const;

/** Emptied with their accounts (or uploads): their rows refer to one ON DELETE CASCADE. */
export const CASCADED_TABLES = {
  idempotency_keys: 'accounts',
  origin_errors: 'accounts',
} as const;

/** Kept on purpose, and why. */
export const KEPT_TABLES = {
  schema_migrations: 'the schema stays migrated',
  certificate_authority: 'clients that trust the local authority keep trusting it (README: certificates)',
  kept_certificates: 'certificates the authority issued, presented again after a start-up',
  dead_blobs: "blobs nothing points at: the files backend's sweep still removes them",
} as const;
