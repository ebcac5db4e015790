/**
 * The records of a DNS zone: add, list, update, delete, import from a zone file, and the cleanup
 * when a pull zone they point at is deleted. Records live inside the zone document, so every write
 * goes through the ZoneWriter (one versioned write of the zone, retried on a lost race).
 */
import type { DnsRecordRequestT, DnsRecordT, DnsRecordType, DnsRecordUpdateRequestT, DnsZoneT } from '../../schemas/dns.js';
import type { PagedT } from '../../schemas/paging.js';
import type { StoreTx } from '../../store/types.js';
import { errors } from '../errors.js';
import type { Clock, Principal } from '../principal.js';
import { linkedId, mergedRequest, newRecord, recordIdentity, updatedRecord } from './record-model.js';
import { recordProblems } from './validate.js';
import { parseZoneFile, ZoneFileSyntaxError } from './zone-file.js';
import { planImport } from './zone-import.js';
import { linkProblems, throwIfAny } from './record-checks.js';
import type { ZoneWriter } from './zone-writer.js';

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

export class DnsRecords {
  constructor(
    private readonly writer: ZoneWriter,
    private readonly clock: Clock,
  ) {}

  async add(principal: Principal, zoneId: number, input: DnsRecordRequestT): Promise<DnsRecordT> {
    return this.writer.edit(principal.accountId, zoneId, async (tx, zone) => {
      throwIfAny(recordProblems(input, zone.Domain ?? ''));
      throwIfAny(await linkProblems(tx, principal.accountId, input));
      const record = newRecord(await tx.nextId('dnsRecord'), input);
      return { zone: this.changed(zone, [...zone.Records, record]), result: record };
    });
  }

  /** In the zone's order (the order they were added), optionally of one type or matching a text. */
  async list(principal: Principal, zoneId: number, query: RecordListQuery): Promise<PagedT<DnsRecordT>> {
    const { doc: zone } = await this.writer.zones.get(this.writer.store, principal.accountId, zoneId);
    const search = query.search?.toLowerCase();
    const matching = zone.Records.filter(
      (r) =>
        (query.type === undefined || r.Type === query.type) &&
        (!search || (r.Name ?? '').toLowerCase().includes(search) || (r.Value ?? '').toLowerCase().includes(search)),
    );
    const offset = (query.page - 1) * query.perPage;
    const items = matching.slice(offset, offset + query.perPage);
    return { Items: items, CurrentPage: query.page, TotalItems: matching.length, HasMoreItems: offset + items.length < matching.length };
  }

  /** Fields left out or null keep their value; the merged record must pass the checks of an add. */
  async update(principal: Principal, zoneId: number, id: number, input: DnsRecordUpdateRequestT): Promise<void> {
    const { Id: bodyId, ...changes } = input;
    if (bodyId != null && bodyId !== id) throw errors.validation('Id', `The Id field (${bodyId}) does not match the record id in the path (${id}).`);
    await this.writer.edit(principal.accountId, zoneId, async (tx, zone) => {
      const old = findRecord(zone, id);
      const merged = mergedRequest(old, changes);
      throwIfAny(recordProblems(merged, zone.Domain ?? ''));
      throwIfAny(await linkProblems(tx, principal.accountId, merged));
      const next = updatedRecord(old, merged);
      return {
        zone: this.changed(
          zone,
          zone.Records.map((r) => (r.Id === id ? next : r)),
        ),
        result: undefined,
      };
    });
  }

  async delete(principal: Principal, zoneId: number, id: number): Promise<void> {
    await this.writer.edit(principal.accountId, zoneId, async (_tx, zone) => {
      findRecord(zone, id);
      return {
        zone: this.changed(
          zone,
          zone.Records.filter((r) => r.Id !== id),
        ),
        result: undefined,
      };
    });
  }

  /**
   * Adds the records of a zone file, all at once: a file that cannot be read is a 400 and adds
   * nothing; a record that cannot be added is counted as failed, one the zone already has (same
   * type, name and data) as skipped.
   */
  async importZoneFile(principal: Principal, zoneId: number, text: string): Promise<ImportResult> {
    return this.writer.edit(principal.accountId, zoneId, async (tx, zone) => {
      const domain = zone.Domain ?? '';
      let entries;
      try {
        entries = parseZoneFile(text, domain);
      } catch (error) {
        if (error instanceof ZoneFileSyntaxError) throw errors.validation('body', error.message, 'dnszone.import_invalid');
        throw error;
      }
      const plan = planImport(entries, zone);
      const result: ImportResult = { RecordsSuccessful: 0, RecordsFailed: plan.failed, RecordsSkipped: plan.skipped };
      const present = new Set(zone.Records.map(recordIdentity));
      const added: DnsRecordT[] = [];
      for (const request of plan.requests) {
        if (recordProblems(request, domain).length > 0 || (await linkProblems(tx, principal.accountId, request)).length > 0) {
          result.RecordsFailed++;
          continue;
        }
        const identity = recordIdentity(newRecord(0, request));
        if (present.has(identity)) {
          result.RecordsSkipped++;
          continue;
        }
        present.add(identity);
        added.push(newRecord(await tx.nextId('dnsRecord'), request));
      }
      result.RecordsSuccessful = added.length;
      return { zone: added.length > 0 ? this.changed(zone, [...zone.Records, ...added]) : undefined, result };
    });
  }

  /**
   * Runs inside the transaction that deletes pull zone `pullZoneId`: the account's PullZone
   * records pointing at it are removed rather than kept as dangling links, because a record whose
   * target is gone can only answer with nothing, and the zone's other records stay untouched.
   */
  async unlinkPullZone(tx: StoreTx, accountId: number, pullZoneId: number): Promise<void> {
    const { items } = await this.writer.zones.list(tx, accountId, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    const pointsAtIt = (r: DnsRecordT) => r.Type === 7 && linkedId(r) === pullZoneId;
    for (const { Id } of items.filter((zone) => zone.Records.some(pointsAtIt))) {
      // A listed document carries no version, and the write is versioned: read the zone itself.
      const current = await this.writer.zones.get(tx, accountId, Id);
      await this.writer.replace(
        tx,
        accountId,
        current,
        this.changed(
          current.doc,
          current.doc.Records.filter((r) => !pointsAtIt(r)),
        ),
      );
    }
  }

  private changed<Z extends DnsZoneT>(zone: Z, records: DnsRecordT[]): Z {
    return { ...zone, Records: records, DateModified: this.clock().toISOString() };
  }
}

function findRecord(zone: DnsZoneT, id: number): DnsRecordT {
  const record = zone.Records.find((r) => r.Id === id);
  if (!record) throw errors.notFound('DNS record');
  return record;
}
