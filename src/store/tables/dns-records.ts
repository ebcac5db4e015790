/**
 * What both dialects share about DNS record rows (migrations 0006 / 0007): reading a dump made
 * before records had rows, where each zone document still held its `Records` array.
 */
import type { DumpRecord } from '../types.js';

type DnsRecordDump = Extract<DumpRecord, { type: 'dnsRecord' }>;

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
