/**
 * The records of DNS zones, a row each (migrations sqlite 0006, postgres 0007), as both dialects
 * dump them; and reading a dump made before records had rows, where each zone document still held
 * its `Records` array.
 */
import { type DumpRecordOf, dumpedTable } from './dumped-table.js';

type DnsRecordDump = DumpRecordOf<'dnsRecord'>;

export interface DnsRecordRow {
  zone_id: number;
  id: number;
  account_id: number;
  /** The record's place in its zone's order. */
  position: number;
  /** The record's type (its index in the platform's list of types). */
  type: number;
  link_id: number | null;
  /** The record, JSON. */
  doc: string;
}

export const DNS_RECORD_COLUMNS = ['zone_id', 'id', 'account_id', 'position', 'type', 'link_id', 'doc'] as const;

const dnsRecordFields = (r: DnsRecordRow) => ({
  zoneId: r.zone_id,
  id: r.id,
  accountId: r.account_id,
  position: r.position,
  recordType: r.type,
  linkId: r.link_id,
  doc: r.doc,
});
const dnsRecordValues = (d: DnsRecordDump) => [d.zoneId, d.id, d.accountId, d.position, d.recordType, d.linkId, d.doc];

export const dnsRecordsDumped = dumpedTable('dnsRecord', 'dns_records', ['zone_id', 'position'], DNS_RECORD_COLUMNS, dnsRecordFields, dnsRecordValues);

/**
 * A zone document as dumped: when it still holds its records (a dump of an older store), they
 * are split out into rows, in order, exactly as the migrations do; `doc` is the zone without them.
 */
export function splitZoneDocument(zoneId: string, accountId: number, doc: string): { doc: string; records: DnsRecordDump[] } {
  const zone = JSON.parse(doc) as { Records?: unknown };
  if (!Array.isArray(zone.Records)) return { doc, records: [] };
  const seen = new Set<number>();
  const records: DnsRecordDump[] = [];
  for (const record of zone.Records as { Id: number; Type: number; LinkName?: string | null }[]) {
    if (seen.has(record.Id)) continue;
    seen.add(record.Id);
    const link = record.Type === 7 || record.Type === 11 ? Number(record.LinkName) : Number.NaN;
    records.push({
      type: 'dnsRecord',
      zoneId: Number(zoneId),
      id: record.Id,
      accountId,
      position: records.length + 1,
      recordType: record.Type,
      linkId: Number.isSafeInteger(link) && link > 0 ? link : null,
      doc: JSON.stringify(record),
    });
  }
  const { Records: _records, ...rest } = zone;
  return { doc: JSON.stringify(rest), records };
}
