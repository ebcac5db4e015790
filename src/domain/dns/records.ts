/**
 * The records of a DNS zone: add, list, update, delete, import from a zone file, and the cleanup
 * when a pull zone they point at is deleted. Each record is a row of its own; every write goes
 * through the ZoneWriter, which also rewrites the zone's small document (its serial and version),
 * so a write costs the same in a zone of ten records or of ten thousand.
 */
import type { DnsRecordRequestT, DnsRecordT, DnsRecordType, DnsRecordUpdateRequestT } from '../../schemas/dns.js';
import type { PagedT } from '../../schemas/paging.js';
import type { StoreTx } from '../../store/types.js';
import { errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import { linkProblems, throwIfAny } from './record-checks.js';
import { mergedRequest, newRecord, recordIdentity, updatedRecord } from './record-model.js';
import { recordProblems } from './validate.js';
import type { ZoneFileReading } from './zone-file.js';
import { planImport } from './zone-import.js';
import type { StoredDnsZone, ZoneWriter } from './zone-writer.js';

export interface RecordListQuery {
  page: number;
  perPage: number;
  type?: DnsRecordType | undefined;
  /** Case-insensitive part of the record's name or value. */
  search?: string | undefined;
}

/** The reference's DnsZoneImportResultModel. */
export interface ImportResult {
  RecordsSuccessful: number;
  RecordsFailed: number;
  RecordsSkipped: number;
}

/** Every record of a zone, in order. */
export async function recordsOf(tx: StoreTx, zoneId: number): Promise<DnsRecordT[]> {
  return (await tx.dnsRecords.ofZones<DnsRecordT>([zoneId])).get(zoneId) ?? [];
}

export class DnsRecords {
  constructor(
    private readonly writer: ZoneWriter,
    private readonly clock: Clock,
  ) {}

  async add(principal: Principal, zoneId: number, input: DnsRecordRequestT): Promise<DnsRecordT> {
    return this.writer.edit(principal, zoneId, async (tx, zone) => {
      throwIfAny(recordProblems(input, zone.Domain ?? ''));
      throwIfAny(await linkProblems(tx, principal.accountId, input));
      const record = newRecord(await tx.nextId('dnsRecord'), input);
      return { zone: this.touched(zone), records: { added: [record] }, result: record };
    });
  }

  /** In the zone's order (the order they were added), optionally of one type or matching a text. */
  async list(principal: Principal, zoneId: number, query: RecordListQuery): Promise<PagedT<DnsRecordT>> {
    const { store } = this.writer;
    const { doc: zone } = await this.writer.zones.get(store, principal.accountId, zoneId);
    const offset = (query.page - 1) * query.perPage;
    const search = query.search?.toLowerCase();
    let items: DnsRecordT[];
    let total: number;
    if (search) {
      // The match is JavaScript's case folding, which SQL's lower() does not share beyond ASCII.
      const ofType = await store.dnsRecords.list<DnsRecordT>(zone.Id, { type: query.type, offset: 0, limit: Number.MAX_SAFE_INTEGER });
      const matching = ofType.items.filter((r) => (r.Name ?? '').toLowerCase().includes(search) || (r.Value ?? '').toLowerCase().includes(search));
      items = matching.slice(offset, offset + query.perPage);
      total = matching.length;
    } else {
      ({ items, total } = await store.dnsRecords.list<DnsRecordT>(zone.Id, { type: query.type, offset, limit: query.perPage }));
    }
    return { Items: items, CurrentPage: query.page, TotalItems: total, HasMoreItems: offset + items.length < total };
  }

  /** Fields left out or null keep their value; the merged record must pass the checks of an add. */
  async update(principal: Principal, zoneId: number, id: number, input: DnsRecordUpdateRequestT): Promise<void> {
    const { Id: bodyId, ...changes } = input;
    if (bodyId != null && bodyId !== id) throw errors.validation('Id', `The Id field (${bodyId}) does not match the record id in the path (${id}).`);
    await this.writer.edit(principal, zoneId, async (tx, zone) => {
      const old = await findRecord(tx, zone, id);
      const merged = mergedRequest(old, changes);
      throwIfAny(recordProblems(merged, zone.Domain ?? ''));
      throwIfAny(await linkProblems(tx, principal.accountId, merged));
      return { zone: this.touched(zone), records: { changed: [{ before: old, after: updatedRecord(old, merged) }] }, result: undefined };
    });
  }

  async delete(principal: Principal, zoneId: number, id: number): Promise<void> {
    await this.writer.edit(principal, zoneId, async (tx, zone) => {
      const old = await findRecord(tx, zone, id);
      return { zone: this.touched(zone), records: { removed: [old] }, result: undefined };
    });
  }

  /**
   * Adds the records of a zone file, all at once: a file that cannot be read is a 400 and adds
   * nothing; a record that cannot be added is counted as failed, one the zone already has (same
   * type, name and data) as skipped. What needs no store (reading the file, checking each record)
   * is done before the transaction, which then only links, numbers and stores the records.
   */
  async importZoneFile(principal: Principal, zoneId: number, file: ZoneFileReading): Promise<ImportResult> {
    const { store } = this.writer;
    const { doc: before } = await this.writer.zones.get(store, principal.accountId, zoneId);
    const checked = checkedImport(file, before);
    return this.writer.edit(principal, zoneId, async (tx, zone) => {
      // The settings the plan was made with may have changed since: plan again with the current ones.
      const { requests, failed, skipped } = sameImportSettings(before, zone) ? checked : checkedImport(file, zone);
      const result: ImportResult = { RecordsSuccessful: 0, RecordsFailed: failed, RecordsSkipped: skipped };
      const present = new Set((await recordsOf(tx, zone.Id)).map(recordIdentity));
      const accepted: DnsRecordRequestT[] = [];
      for (const { request, identity } of requests) {
        if ((await linkProblems(tx, principal.accountId, request)).length > 0) {
          result.RecordsFailed++;
          continue;
        }
        if (present.has(identity)) {
          result.RecordsSkipped++;
          continue;
        }
        present.add(identity);
        accepted.push(request);
      }
      const ids = await tx.nextIds('dnsRecord', accepted.length);
      const added = accepted.map((request, i) => newRecord(ids[i]!, request));
      result.RecordsSuccessful = added.length;
      return { zone: added.length > 0 ? this.touched(zone) : undefined, records: { added }, result };
    });
  }

  /**
   * Runs inside the transaction that deletes pull zone `pullZoneId`: the account's PullZone
   * records pointing at it are removed rather than kept as dangling links, because a record whose
   * target is gone can only answer with nothing, and the zones' other records stay untouched.
   */
  async unlinkPullZone(tx: StoreTx, accountId: number, pullZoneId: number): Promise<void> {
    const byZone = new Map<number, DnsRecordT[]>();
    for (const { zoneId, doc } of await tx.dnsRecords.linkedTo<DnsRecordT>(accountId, pullZoneId)) {
      if (doc.Type === 7) byZone.set(zoneId, [...(byZone.get(zoneId) ?? []), doc]);
    }
    for (const [zoneId, removed] of byZone) {
      const current = await this.writer.zones.get(tx, accountId, zoneId);
      await this.writer.apply(tx, accountId, current, this.touched(current.doc), { removed });
    }
  }

  private touched(zone: StoredDnsZone): StoredDnsZone {
    return { ...zone, DateModified: this.clock().toISOString() };
  }
}

async function findRecord(tx: StoreTx, zone: StoredDnsZone, id: number): Promise<DnsRecordT> {
  const record = await tx.dnsRecords.get<DnsRecordT>(zone.Id, id);
  if (!record) throw errors.notFound('DNS record');
  return record;
}

interface CheckedImport {
  /** The requests that pass the record checks, in file order, with what makes each one distinct. */
  requests: { request: DnsRecordRequestT; identity: string }[];
  failed: number;
  skipped: number;
}

type ImportSettings = Pick<StoredDnsZone, 'Domain' | 'Nameserver1' | 'Nameserver2'>;

const sameImportSettings = (a: ImportSettings, b: ImportSettings) =>
  a.Domain === b.Domain && a.Nameserver1 === b.Nameserver1 && a.Nameserver2 === b.Nameserver2;

/** The file read against the zone (a 400 naming the line if it cannot be), and each record checked. */
function checkedImport(file: ZoneFileReading, zone: ImportSettings): CheckedImport {
  const domain = zone.Domain ?? '';
  const read = file.entries(domain);
  if ('problem' in read) throw errors.validation('body', read.problem.message, 'dnszone.import_invalid');
  const plan = planImport(read.entries, zone);
  const checked: CheckedImport = { requests: [], failed: plan.failed, skipped: plan.skipped };
  for (const request of plan.requests) {
    if (recordProblems(request, domain).length > 0) checked.failed++;
    else checked.requests.push({ request, identity: recordIdentity(newRecord(0, request)) });
  }
  return checked;
}
