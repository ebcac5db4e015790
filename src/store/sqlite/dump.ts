/** Dump and load for the SQLite store (see DumpRecord). */
import type Database from 'better-sqlite3';
import type { DumpRecord, KeyKind, ResourceKind } from '../types.js';
import { decodeDoc, encodeDoc } from './doc-codec.js';
import { splitZoneDocument } from '../tables/dns-records.js';
import { type FileRow, fileFromRow, fileRowValues } from '../tables/files.js';
import { partRowValues, uploadRowValues } from '../tables/s3-uploads.js';
import { dumpS3Uploads, INSERT_PART, INSERT_UPLOAD } from './s3-uploads.js';
import { AUDIT_COLUMNS, auditFromRow, type AuditRow } from '../tables/audit-log.js';
import { billingFromRow, type BillingRow } from '../tables/billing-records.js';
import { type AuthorityRow, authorityFromRow, authorityValues } from '../tables/certificate-authority.js';
import { type AccessLogRow, accessLogFromRow } from '../tables/access-log.js';

interface KeyRow {
  id: number;
  account_id: number;
  kind: KeyKind;
  roles: string;
  lookup_hash: string;
  sealed_key: string;
  created_at: string;
  revoked_at: string | null;
}
interface ResourceRow {
  rid: number;
  kind: ResourceKind;
  id: string;
  account_id: number;
  name: string | null;
  parent_id: string | null;
  link_id: string | null;
  version: number;
  doc: string | Buffer;
}

interface DnsRecordRow {
  zone_id: number;
  id: number;
  account_id: number;
  position: number;
  type: number;
  link_id: number | null;
  doc: string;
}

type Db = Database.Database;

export function* dumpSqlite(db: Db): Generator<DumpRecord> {
  yield { type: 'header', format: 'edgeplane-dump', version: 1, dialect: 'sqlite', createdAt: new Date().toISOString() };
  for (const r of db.prepare('SELECT * FROM accounts ORDER BY id').iterate() as Iterable<{ id: number; name: string; balance: number; created_at: string }>) {
    yield { type: 'account', id: r.id, name: r.name, balance: r.balance, createdAt: r.created_at };
  }
  for (const r of db.prepare('SELECT * FROM api_keys ORDER BY id').iterate() as Iterable<KeyRow>) {
    yield {
      type: 'apiKey',
      id: r.id,
      accountId: r.account_id,
      kind: r.kind,
      roles: JSON.parse(r.roles) as string[],
      lookupHash: r.lookup_hash,
      sealedKey: r.sealed_key,
      createdAt: r.created_at,
      revokedAt: r.revoked_at,
    };
  }
  for (const r of db.prepare('SELECT * FROM resources ORDER BY rid').iterate() as Iterable<ResourceRow>) {
    yield {
      type: 'resource',
      kind: r.kind,
      id: r.id,
      accountId: r.account_id,
      name: r.name,
      parentId: r.parent_id,
      linkId: r.link_id,
      version: r.version,
      doc: decodeDoc(r.doc),
    };
  }
  for (const r of db.prepare('SELECT * FROM dns_records ORDER BY zone_id, position').iterate() as Iterable<DnsRecordRow>) {
    yield { type: 'dnsRecord', zoneId: r.zone_id, id: r.id, accountId: r.account_id, position: r.position, recordType: r.type, linkId: r.link_id, doc: r.doc };
  }
  for (const r of db.prepare('SELECT name, last FROM sequences ORDER BY name').iterate() as Iterable<{ name: string; last: number }>) {
    yield { type: 'sequence', name: r.name, last: r.last };
  }
  for (const r of db.prepare('SELECT kind, payload, run_at, attempts FROM jobs ORDER BY id').iterate() as Iterable<{
    kind: string;
    payload: string;
    run_at: number;
    attempts: number;
  }>) {
    yield { type: 'job', kind: r.kind, payload: r.payload, runAt: r.run_at, attempts: r.attempts };
  }
  for (const r of db.prepare('SELECT * FROM files ORDER BY zone_id, path').iterate() as Iterable<FileRow>) yield { type: 'file', ...fileFromRow(r) };
  for (const r of db.prepare('SELECT * FROM storage_usage ORDER BY zone_id').iterate() as Iterable<{
    zone_id: string;
    account_id: number;
    files: number;
    bytes: number;
  }>) {
    yield { type: 'storageUsage', zoneId: r.zone_id, accountId: r.account_id, files: r.files, bytes: r.bytes };
  }
  for (const r of db.prepare('SELECT * FROM storage_usage_daily ORDER BY zone_id, day').iterate() as Iterable<{
    zone_id: string;
    day: string;
    files: number;
    bytes: number;
  }>) {
    yield { type: 'storageUsageDay', zoneId: r.zone_id, day: r.day, files: r.files, bytes: r.bytes };
  }
  for (const r of db.prepare('SELECT * FROM dead_blobs ORDER BY key').iterate() as Iterable<{ key: string; dead_at: number }>) {
    yield { type: 'deadBlob', key: r.key, deadAt: r.dead_at };
  }
  for (const r of db.prepare('SELECT * FROM usage_counters ORDER BY subject, metric, hour').iterate() as Iterable<{
    subject: string;
    metric: string;
    hour: number;
    value: number;
  }>) {
    yield { type: 'usage', subject: r.subject, metric: r.metric, hour: r.hour, value: r.value };
  }
  for (const r of db.prepare(`SELECT ${AUDIT_COLUMNS} FROM audit_log ORDER BY id`).iterate() as Iterable<AuditRow>)
    yield { type: 'auditEntry', ...auditFromRow(r) };
  for (const r of db.prepare('SELECT * FROM billing_records ORDER BY id').iterate() as Iterable<BillingRow>)
    yield { type: 'billingRecord', ...billingFromRow(r) };
  for (const r of db.prepare('SELECT * FROM certificate_authority').iterate() as Iterable<AuthorityRow>)
    yield { type: 'certificateAuthority', ...authorityFromRow(r) };
  for (const r of db.prepare('SELECT * FROM access_log ORDER BY id').iterate() as Iterable<AccessLogRow>)
    yield { type: 'accessLogEntry', ...accessLogFromRow(r) };
  yield* dumpS3Uploads(db);
}

export async function loadSqlite(db: Db, records: AsyncIterable<DumpRecord>): Promise<number> {
  const empty = (db.prepare('SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM resources) AS n').get() as { n: number }).n === 0;
  if (!empty) throw new Error('the target store is not empty');
  const insert = {
    account: db.prepare('INSERT INTO accounts (id, name, balance, created_at) VALUES (?, ?, ?, ?)'),
    apiKey: db.prepare('INSERT INTO api_keys (id, account_id, kind, roles, lookup_hash, sealed_key, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    resource: db.prepare('INSERT INTO resources (kind, id, account_id, name, parent_id, link_id, version, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    dnsRecord: db.prepare('INSERT INTO dns_records (zone_id, id, account_id, position, type, link_id, doc) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    sequence: db.prepare('INSERT INTO sequences (name, last) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last = max(last, excluded.last)'),
    job: db.prepare('INSERT INTO jobs (kind, payload, run_at, attempts) VALUES (?, ?, ?, ?)'),
    file: db.prepare(
      'INSERT INTO files (zone_id, path, parent, account_id, is_dir, size, sha256, md5, content_type, guid, blobs, meta, created_at, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    storageUsage: db.prepare('INSERT INTO storage_usage (zone_id, account_id, files, bytes) VALUES (?, ?, ?, ?)'),
    storageUsageDay: db.prepare('INSERT INTO storage_usage_daily (zone_id, day, files, bytes) VALUES (?, ?, ?, ?)'),
    deadBlob: db.prepare('INSERT INTO dead_blobs (key, dead_at) VALUES (?, ?)'),
    usage: db.prepare('INSERT INTO usage_counters (subject, metric, hour, value) VALUES (?, ?, ?, ?)'),
    auditEntry: db.prepare(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    accessLogEntry: db.prepare('INSERT INTO access_log (id, account_id, pull_zone_id, at, lines, entry) VALUES (?, ?, ?, ?, ?, ?)'),
    s3Upload: db.prepare(INSERT_UPLOAD),
    s3UploadPart: db.prepare(INSERT_PART),
    billingRecord: db.prepare('INSERT INTO billing_records (id, account_id, type, amount, at, month, payer, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    // The dump's authority replaces this store's own (which survives wipes, so an "empty" store may have one).
    certificateAuthority: db.prepare(
      'INSERT INTO certificate_authority (id, installation_id, certificate, sealed_key, created_at) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET installation_id = excluded.installation_id, certificate = excluded.certificate, sealed_key = excluded.sealed_key, created_at = excluded.created_at',
    ),
  };
  let n = 0;
  db.exec('BEGIN IMMEDIATE');
  try {
    for await (const r of records) {
      switch (r.type) {
        case 'header':
          if (r.format !== 'edgeplane-dump' || r.version !== 1) throw new Error('not an edgeplane dump (version 1)');
          continue;
        case 'account':
          insert.account.run(r.id, r.name, r.balance, r.createdAt);
          break;
        case 'apiKey':
          insert.apiKey.run(r.id, r.accountId, r.kind, JSON.stringify(r.roles), r.lookupHash, r.sealedKey, r.createdAt, r.revokedAt);
          break;
        case 'resource': {
          // A dump made before records had rows of their own holds them in the zone document.
          const split = r.kind === 'dnsZone' ? splitZoneDocument(r.id, r.accountId, r.doc) : { doc: r.doc, records: [] };
          insert.resource.run(r.kind, r.id, r.accountId, r.name, r.parentId, r.linkId, r.version, encodeDoc(r.kind, split.doc));
          for (const d of split.records) insert.dnsRecord.run(d.zoneId, d.id, d.accountId, d.position, d.recordType, d.linkId, d.doc);
          break;
        }
        case 'dnsRecord':
          insert.dnsRecord.run(r.zoneId, r.id, r.accountId, r.position, r.recordType, r.linkId, r.doc);
          break;
        case 'sequence':
          insert.sequence.run(r.name, r.last);
          break;
        case 'job':
          insert.job.run(r.kind, r.payload, r.runAt, r.attempts);
          break;
        case 'file':
          insert.file.run(...fileRowValues(r));
          break;
        case 'storageUsage':
          insert.storageUsage.run(r.zoneId, r.accountId, r.files, r.bytes);
          break;
        case 'storageUsageDay':
          insert.storageUsageDay.run(r.zoneId, r.day, r.files, r.bytes);
          break;
        case 'deadBlob':
          insert.deadBlob.run(r.key, r.deadAt);
          break;
        case 'usage':
          insert.usage.run(r.subject, r.metric, r.hour, r.value);
          break;
        case 'auditEntry':
          insert.auditEntry.run(r.id, r.accountId, r.day, r.at, r.product, r.resourceType, r.resourceId, r.action, r.actorId, r.actorType, r.diff);
          break;
        case 'billingRecord':
          insert.billingRecord.run(r.id, r.accountId, r.recordType, r.amount, r.at, r.month, r.payer, r.details);
          break;
        case 'certificateAuthority':
          insert.certificateAuthority.run(...authorityValues(r));
          break;
        case 'accessLogEntry':
          // Dumps from before chunked logs carry one line per entry and no count.
          insert.accessLogEntry.run(r.id, r.accountId, r.pullZoneId, r.at, r.lines ?? 1, r.entry);
          break;
        case 's3Upload':
          insert.s3Upload.run(...uploadRowValues(r));
          break;
        case 's3UploadPart':
          insert.s3UploadPart.run(...partRowValues(r));
          break;
      }
      n++;
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return n;
}
