/** Dump and load for the PostgreSQL store (see DumpRecord); reads in keyset pages, not at once. */
import type pg from 'pg';
import type { DumpRecord, KeyKind, ResourceKind } from '../types.js';

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
  doc: string;
}
import { FILE_SELECT as FILE_COLUMNS, type FileRow, fileFromRow, fileRowValues } from '../tables/files.js';
import type { PgSequences } from './sequences.js';
import { splitZoneDocument } from '../tables/dns-records.js';
import { dumpPgS3Uploads, loadPgS3Record } from './s3-uploads.js';
import { AUDIT_COLUMNS, auditFromRow, type AuditRow } from '../tables/audit-log.js';
import { billingFromRow, type BillingRow } from '../tables/billing-records.js';
import { type AuthorityRow, authorityFromRow, authorityValues } from '../tables/certificate-authority.js';
import { type AccessLogRow, accessLogFromRow } from '../tables/access-log.js';

const PAGE = 1000;

interface DnsRecordRow {
  zone_id: number;
  id: number;
  account_id: number;
  position: number;
  type: number;
  link_id: number | null;
  doc: string;
}

const INSERT_DNS_RECORD = 'INSERT INTO dns_records (zone_id, id, account_id, position, type, link_id, doc) VALUES ($1, $2, $3, $4, $5, $6, $7)';

async function* pages<R extends pg.QueryResultRow>(pool: pg.Pool, table: string, key: string, columns = '*'): AsyncGenerator<R> {
  let after = 0;
  for (;;) {
    const { rows } = await pool.query<R>(`SELECT ${columns} FROM ${table} WHERE ${key} > $1 ORDER BY ${key} LIMIT ${PAGE}`, [after]);
    yield* rows;
    if (rows.length < PAGE) return;
    after = (rows[rows.length - 1] as Record<string, number>)[key]!;
  }
}

/** Pages of a table ordered by a composite key, resuming after the last row's key each time. */
async function* pagesBy<R extends pg.QueryResultRow>(pool: pg.Pool, table: string, keys: string[]): AsyncGenerator<R> {
  let after: unknown[] | undefined;
  const list = keys.join(', ');
  const placeholders = keys.map((_k, i) => `$${i + 1}`).join(', ');
  for (;;) {
    const where = after ? `WHERE (${list}) > (${placeholders})` : '';
    const { rows } = await pool.query<R>(`SELECT * FROM ${table} ${where} ORDER BY ${list} LIMIT ${PAGE}`, after ?? []);
    yield* rows;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = keys.map((k) => last[k]);
  }
}

/** `seq_pull_zone` → `pullZone`: the reverse of sequenceName(). */
const sequenceKey = (seq: string) => seq.slice('seq_'.length).replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

export async function* dumpPostgres(pool: pg.Pool): AsyncGenerator<DumpRecord> {
  yield { type: 'header', format: 'edgeplane-dump', version: 1, dialect: 'postgres', createdAt: new Date().toISOString() };
  for await (const r of pages<{ id: number; name: string; balance: number; created_at: string }>(pool, 'accounts', 'id')) {
    yield { type: 'account', id: r.id, name: r.name, balance: r.balance, createdAt: r.created_at };
  }
  for await (const r of pages<KeyRow>(pool, 'api_keys', 'id')) {
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
  for await (const r of pages<ResourceRow>(pool, 'resources', 'rid')) {
    yield {
      type: 'resource',
      kind: r.kind,
      id: r.id,
      accountId: r.account_id,
      name: r.name,
      parentId: r.parent_id,
      linkId: r.link_id,
      version: r.version,
      doc: r.doc,
    };
  }
  for await (const r of pagesBy<DnsRecordRow>(pool, 'dns_records', ['zone_id', 'position'])) {
    yield { type: 'dnsRecord', zoneId: r.zone_id, id: r.id, accountId: r.account_id, position: r.position, recordType: r.type, linkId: r.link_id, doc: r.doc };
  }
  const seqs = await pool.query<{ sequencename: string; last_value: number | null }>(
    `SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = current_schema() AND sequencename LIKE 'seq\\_%' ORDER BY sequencename`,
  );
  for (const s of seqs.rows) if (s.last_value !== null) yield { type: 'sequence', name: sequenceKey(s.sequencename), last: s.last_value };
  for await (const r of pages<{ id: number; kind: string; payload: string; run_at: number; attempts: number }>(pool, 'jobs', 'id')) {
    yield { type: 'job', kind: r.kind, payload: r.payload, runAt: r.run_at, attempts: r.attempts };
  }
  for await (const r of pagesBy<FileRow>(pool, 'files', ['zone_id', 'path'])) yield { type: 'file', ...fileFromRow(r) };
  for await (const r of pagesBy<{ zone_id: string; account_id: number; files: number; bytes: number }>(pool, 'storage_usage', ['zone_id'])) {
    yield { type: 'storageUsage', zoneId: r.zone_id, accountId: r.account_id, files: r.files, bytes: r.bytes };
  }
  for await (const r of pagesBy<{ zone_id: string; day: string; files: number; bytes: number }>(pool, 'storage_usage_daily', ['zone_id', 'day'])) {
    yield { type: 'storageUsageDay', zoneId: r.zone_id, day: r.day, files: r.files, bytes: r.bytes };
  }
  for await (const r of pagesBy<{ key: string; dead_at: number }>(pool, 'dead_blobs', ['key'])) yield { type: 'deadBlob', key: r.key, deadAt: r.dead_at };
  for await (const r of pagesBy<{ subject: string; metric: string; hour: number; value: number }>(pool, 'usage_counters', ['subject', 'metric', 'hour'])) {
    yield { type: 'usage', subject: r.subject, metric: r.metric, hour: r.hour, value: r.value };
  }
  for await (const r of pages<AuditRow>(pool, 'audit_log', 'id', AUDIT_COLUMNS)) yield { type: 'auditEntry', ...auditFromRow(r) };
  for await (const r of pages<BillingRow>(pool, 'billing_records', 'id')) yield { type: 'billingRecord', ...billingFromRow(r) };
  for (const r of (await pool.query<AuthorityRow>('SELECT * FROM certificate_authority')).rows) yield { type: 'certificateAuthority', ...authorityFromRow(r) };
  for await (const r of pages<AccessLogRow>(pool, 'access_log', 'id')) yield { type: 'accessLogEntry', ...accessLogFromRow(r) };
  yield* dumpPgS3Uploads(pool);
}

export async function loadPostgres(pool: pg.Pool, sequences: PgSequences, records: AsyncIterable<DumpRecord>): Promise<number> {
  const client = await pool.connect();
  const seqs: { name: string; last: number }[] = [];
  let n = 0;
  try {
    await client.query('BEGIN');
    // One announcement of everything at the end instead of one per row (migration 0004).
    await client.query("SET LOCAL edgeplane.bulk = 'on'");
    const { rows } = await client.query<{ n: number }>('SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM resources) AS n');
    if (rows[0]!.n > 0) throw new Error('the target store is not empty');
    for await (const r of records) {
      switch (r.type) {
        case 'header':
          if (r.format !== 'edgeplane-dump' || r.version !== 1) throw new Error('not an edgeplane dump (version 1)');
          continue;
        case 'account':
          await client.query('INSERT INTO accounts (id, name, balance, created_at) VALUES ($1, $2, $3, $4)', [r.id, r.name, r.balance, r.createdAt]);
          break;
        case 'apiKey':
          await client.query(
            'INSERT INTO api_keys (id, account_id, kind, roles, lookup_hash, sealed_key, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
            [r.id, r.accountId, r.kind, JSON.stringify(r.roles), r.lookupHash, r.sealedKey, r.createdAt, r.revokedAt],
          );
          break;
        case 'resource': {
          // A dump made before records had rows of their own holds them in the zone document.
          const split = r.kind === 'dnsZone' ? splitZoneDocument(r.id, r.accountId, r.doc) : { doc: r.doc, records: [] };
          await client.query('INSERT INTO resources (kind, id, account_id, name, parent_id, link_id, version, doc) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
            r.kind,
            r.id,
            r.accountId,
            r.name,
            r.parentId,
            r.linkId,
            r.version,
            split.doc,
          ]);
          for (const d of split.records) await client.query(INSERT_DNS_RECORD, [d.zoneId, d.id, d.accountId, d.position, d.recordType, d.linkId, d.doc]);
          break;
        }
        case 'dnsRecord':
          await client.query(INSERT_DNS_RECORD, [r.zoneId, r.id, r.accountId, r.position, r.recordType, r.linkId, r.doc]);
          break;
        case 'sequence':
          seqs.push({ name: r.name, last: r.last });
          break;
        case 'job':
          await client.query('INSERT INTO jobs (kind, payload, run_at, attempts) VALUES ($1, $2, $3, $4)', [r.kind, r.payload, r.runAt, r.attempts]);
          break;
        case 'file':
          await client.query(`INSERT INTO files (${FILE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`, fileRowValues(r));
          break;
        case 'storageUsage':
          await client.query('INSERT INTO storage_usage (zone_id, account_id, files, bytes) VALUES ($1, $2, $3, $4)', [
            r.zoneId,
            r.accountId,
            r.files,
            r.bytes,
          ]);
          break;
        case 'storageUsageDay':
          await client.query('INSERT INTO storage_usage_daily (zone_id, day, files, bytes) VALUES ($1, $2, $3, $4)', [r.zoneId, r.day, r.files, r.bytes]);
          break;
        case 'deadBlob':
          await client.query('INSERT INTO dead_blobs (key, dead_at) VALUES ($1, $2)', [r.key, r.deadAt]);
          break;
        case 'usage':
          await client.query('INSERT INTO usage_counters (subject, metric, hour, value) VALUES ($1, $2, $3, $4)', [r.subject, r.metric, r.hour, r.value]);
          break;
        case 'auditEntry':
          await client.query(`INSERT INTO audit_log (${AUDIT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, [
            r.id,
            r.accountId,
            r.day,
            r.at,
            r.product,
            r.resourceType,
            r.resourceId,
            r.action,
            r.actorId,
            r.actorType,
            r.diff,
          ]);
          break;
        case 'certificateAuthority':
          // The dump's authority replaces this store's own (which survives wipes, so an "empty" store may have one).
          await client.query(
            'INSERT INTO certificate_authority (id, installation_id, certificate, sealed_key, created_at) VALUES (1, $1, $2, $3, $4) ON CONFLICT (id) DO UPDATE SET installation_id = excluded.installation_id, certificate = excluded.certificate, sealed_key = excluded.sealed_key, created_at = excluded.created_at',
            authorityValues(r),
          );
          break;
        case 'billingRecord':
          await client.query('INSERT INTO billing_records (id, account_id, type, amount, at, month, payer, details) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
            r.id,
            r.accountId,
            r.recordType,
            r.amount,
            r.at,
            r.month,
            r.payer,
            r.details,
          ]);
          break;
        case 'accessLogEntry':
          // Dumps from before chunked logs carry one line per entry and no count.
          await client.query('INSERT INTO access_log (id, account_id, pull_zone_id, at, lines, entry) VALUES ($1, $2, $3, $4, $5, $6)', [
            r.id,
            r.accountId,
            r.pullZoneId,
            r.at,
            r.lines ?? 1,
            r.entry,
          ]);
          break;
        case 's3Upload':
        case 's3UploadPart':
          await loadPgS3Record(client, r);
          break;
      }
      n++;
    }
    // Rows came with their ids: move the serial counters past them.
    for (const table of ['accounts', 'api_keys', 'audit_log', 'billing_records', 'access_log']) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT max(id) FROM ${table}), 1), (SELECT max(id) FROM ${table}) IS NOT NULL)`,
      );
    }
    await client.query("SELECT pg_notify('edgeplane_' || md5(current_schema()), coalesce(current_setting('edgeplane.instance', true), '') || '|all')");
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  for (const s of seqs) await sequences.advance(s.name, s.last);
  return n;
}
