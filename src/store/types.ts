/**
 * The storage boundary. Routes and domain code see only this interface, so SQLite and PostgreSQL
 * are interchangeable. Resources are stored as JSON documents plus the few columns the store must
 * index itself (owner, unique name, parent and link ids); every query is scoped by account, which
 * makes cross-account reads impossible by construction rather than by convention.
 *
 * The declarations live in types/, a file per subject; this index is what the rest imports.
 */
export * from './types/access-log.js';
export * from './types/account-records.js';
export * from './types/accounts.js';
export * from './types/certificates.js';
export * from './types/changes.js';
export * from './types/dns-records.js';
export * from './types/dump.js';
export * from './types/files.js';
export * from './types/idempotency.js';
export * from './types/jobs.js';
export * from './types/origin-errors.js';
export * from './types/resources.js';
export * from './types/s3-uploads.js';
export * from './types/store.js';
export * from './types/usage.js';
