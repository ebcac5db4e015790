/**
 * Dump and load (`edgeplane export` / `edgeplane import`, see DumpRecord), the same for both
 * dialects: which tables a dump holds and in what order, what record each row becomes, and what
 * rows each record adds back. A dialect only reads a table's rows in order (DumpSource) and writes
 * one row (DumpTarget), inside the transaction it opens.
 */
import { accessLogDumped } from './tables/access-log.js';
import { accountsDumped } from './tables/accounts.js';
import { apiKeysDumped } from './tables/api-keys.js';
import { auditLogDumped } from './tables/audit-log.js';
import { billingRecordsDumped } from './tables/billing-records.js';
import { certificateAuthorityDumped } from './tables/certificate-authority.js';
import { deadBlobsDumped } from './tables/dead-blobs.js';
import { dnsRecordsDumped, splitZoneDocument } from './tables/dns-records.js';
import type { DocCodec, DumpType, SomeDumpedTable } from './tables/dumped-table.js';
import { filesDumped } from './tables/files.js';
import { jobsDumped } from './tables/jobs.js';
import { originErrorsDumped } from './tables/origin-errors.js';
import { resourcesDumped } from './tables/resources.js';
import { s3UploadPartsDumped, s3UploadsDumped } from './tables/s3-uploads.js';
import type { Param } from './tables/sql.js';
import { insertSql } from './tables/sql.js';
import { storageUsageDaysDumped, storageUsageDumped } from './tables/storage-usage.js';
import { usageCountersDumped } from './tables/usage-counters.js';
import type { DumpRecord } from './types.js';

/** Where the id sequences stand in a dump: each dialect keeps them its own way (see DumpSource.sequences). */
const SEQUENCES = 'sequences';

/** In an order a load can replay: accounts before what they own, DNS zones (resources) before their records. */
const DUMP_ORDER: readonly (SomeDumpedTable | typeof SEQUENCES)[] = [
  accountsDumped,
  apiKeysDumped,
  resourcesDumped,
  dnsRecordsDumped,
  SEQUENCES,
  jobsDumped,
  filesDumped,
  storageUsageDumped,
  storageUsageDaysDumped,
  deadBlobsDumped,
  usageCountersDumped,
  auditLogDumped,
  billingRecordsDumped,
  certificateAuthorityDumped,
  accessLogDumped,
  originErrorsDumped,
  s3UploadsDumped,
  s3UploadPartsDumped,
];

const TABLE_OF = new Map<DumpType, SomeDumpedTable>(DUMP_ORDER.flatMap((t) => (t === SEQUENCES ? [] : [[t.type, t] as const])));

export interface DumpSource {
  readonly docs: DocCodec;
  /** Every row of `table`, in the order of `table.order`. */
  rows(table: SomeDumpedTable): Iterable<object> | AsyncIterable<object>;
  /** Where each id sequence stands: SQLite keeps them in a table, PostgreSQL as sequences of its own. */
  sequences(): Iterable<{ name: string; last: number }> | AsyncIterable<{ name: string; last: number }>;
}

export async function* dumpRecords(dialect: 'sqlite' | 'postgres', source: DumpSource): AsyncGenerator<DumpRecord> {
  yield { type: 'header', format: 'edgeplane-dump', version: 1, dialect, createdAt: new Date().toISOString() };
  for (const table of DUMP_ORDER) {
    if (table === SEQUENCES) {
      for await (const s of source.sequences()) yield { type: 'sequence', name: s.name, last: s.last };
      continue;
    }
    for await (const row of source.rows(table)) yield table.record(row, source.docs);
  }
}

/** What a store is not empty without: a load goes into an empty store only. */
export const OWNED_ROWS_SQL = 'SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM resources) AS n';

export interface DumpTarget {
  readonly docs: DocCodec;
  /** How many rows `OWNED_ROWS_SQL` counts. */
  ownedRows(): number | Promise<number>;
  /** Adds one row to `table` (its loadSql()). */
  insert(table: SomeDumpedTable, values: unknown[]): void | Promise<void>;
  /** Moves a sequence so that its next id is above `last`. */
  sequence(name: string, last: number): void | Promise<void>;
}

/** The statement that adds a row of `table` in a load. */
export const loadSql = (table: SomeDumpedTable, param: Param): string =>
  table.onConflict ? `${insertSql(table.table, table.columns, param)} ${table.onConflict}` : insertSql(table.table, table.columns, param);

/** Replays `records` into `target`, which must be empty; answers how many records it added. The caller holds the transaction. */
export async function loadRecords(records: AsyncIterable<DumpRecord>, target: DumpTarget): Promise<number> {
  if ((await target.ownedRows()) > 0) throw new Error('the target store is not empty');
  let n = 0;
  for await (const r of records) {
    switch (r.type) {
      case 'header':
        if (r.format !== 'edgeplane-dump' || r.version !== 1) throw new Error('not an edgeplane dump (version 1)');
        continue;
      case 'sequence':
        await target.sequence(r.name, r.last);
        break;
      case 'resource': {
        // A dump made before records had rows of their own holds them in the zone document.
        const split = r.kind === 'dnsZone' ? splitZoneDocument(r.id, r.accountId, r.doc) : { doc: r.doc, records: [] };
        await target.insert(resourcesDumped, resourcesDumped.values({ ...r, doc: split.doc }, target.docs));
        for (const d of split.records) await target.insert(dnsRecordsDumped, dnsRecordsDumped.values(d, target.docs));
        break;
      }
      default: {
        const table = TABLE_OF.get(r.type)!;
        await target.insert(table, table.values(r, target.docs));
      }
    }
    n++;
  }
  return n;
}
