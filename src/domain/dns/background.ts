/**
 * The DNS record states that change by themselves, driven by stored background jobs.
 *
 * Acceleration (`Accelerated: true`; each step takes `EDGEPLANE_JOB_DELAY_MS`):
 *
 * | AccelerationStatus | event | next |
 * |---|---|---|
 * | None (0) | record saved with Accelerated true | Pending (1) |
 * | Pending (1) | job step | Processing (2) |
 * | Processing (2) | job step: a pull zone is created with the record's target as origin | Completed (3), `AcceleratedPullZoneId` set; the zone's `DnsRecordId`, `DnsZoneId`, `DnsRecordValue` point back |
 * | Processing (2) | the pull zone cannot be created (name taken, target not usable as an origin) | Failed (4) |
 * | any | Accelerated set to false, or the record deleted | the job stops |
 *
 * Monitoring (`MonitorType` Ping (1) or Http (2)): a job probes the record's target every
 * `EDGEPLANE_MONITOR_INTERVAL_MS` — Ping opens a TCP connection, Http sends a GET and counts any
 * answer below 500 — with a 3 s bound, and sets `MonitorStatus` Online (1) or Offline (2); Unknown
 * (0) until the first probe. The target is the record's Value, on its `Port` when set, else 80.
 */
import type { DnsRecordT } from '../../schemas/dns.js';
import type { JobRunner } from '../../jobs/runner.js';
import type { Store, StoreTx } from '../../store/types.js';
import type { Clock } from '../principal.js';
import type { PullZoneService } from '../pull-zones/service.js';
import type { DnsZoneService } from './service.js';
import { probe } from './probe.js';
import type { StoredDnsZone } from './zone-writer.js';

export const ACCELERATE_JOB = 'dns.accelerate';
export const MONITOR_JOB = 'dns.monitor';

interface RecordRef {
  accountId: number;
  zoneId: number;
  recordId: number;
}

const PENDING = 1;
const PROCESSING = 2;
const COMPLETED = 3;
const FAILED = 4;
const monitored = (r: DnsRecordT) => r.MonitorType === 1 || r.MonitorType === 2;

export interface DnsBackgroundOptions {
  store: Store;
  jobs: JobRunner;
  clock: Clock;
  pullZones: PullZoneService;
  jobDelayMs: number;
  monitorIntervalMs: number;
}

export function registerDnsBackground(dns: DnsZoneService, o: DnsBackgroundOptions): void {
  const at = (delay: number) => o.clock().getTime() + delay;

  dns.writer.onRecordWritten.push(async (tx, accountId, zoneId, was, record) => {
    const ref: RecordRef = { accountId, zoneId, recordId: record.Id };
    if (record.Accelerated && record.AccelerationStatus === PENDING && !(was?.Accelerated && was.AccelerationStatus === PENDING)) {
      await tx.jobs.enqueue(ACCELERATE_JOB, ref, at(o.jobDelayMs));
    }
    const watchStarts = monitored(record) && (!was || !monitored(was) || was.Value !== record.Value || was.Port !== record.Port);
    if (watchStarts) await tx.jobs.enqueue(MONITOR_JOB, ref, at(0));
  });

  /** Changes one record, if it still exists, in its own transaction. */
  const changeRecord = (ref: RecordRef, change: (tx: StoreTx, record: DnsRecordT, zone: StoredDnsZone) => Promise<DnsRecordT | undefined>) =>
    dns.writer
      .edit({ accountId: ref.accountId }, ref.zoneId, async (tx, zone) => {
        const record = await tx.dnsRecords.get<DnsRecordT>(zone.Id, ref.recordId);
        const next = record && (await change(tx, record, zone));
        if (!next) return { result: undefined };
        return { records: { changed: [{ before: record, after: next }] }, result: undefined };
      })
      .catch((error: unknown) => {
        // The zone was deleted meanwhile: nothing left to do.
        if ((error as { code?: string }).code === 'not_found') return undefined;
        throw error;
      });

  o.jobs.register(ACCELERATE_JOB, async (payload) => {
    const ref = payload as RecordRef;
    await changeRecord(ref, async (tx, record, zone) => {
      if (!record.Accelerated) return undefined;
      if (record.AccelerationStatus === PENDING) {
        await tx.jobs.enqueue(ACCELERATE_JOB, ref, at(o.jobDelayMs));
        return { ...record, AccelerationStatus: PROCESSING };
      }
      if (record.AccelerationStatus !== PROCESSING) return undefined;
      return accelerate(tx, o.pullZones, ref, record, zone);
    });
  });

  o.jobs.register(MONITOR_JOB, async (payload) => {
    const ref = payload as RecordRef;
    const zone = await dns.writer.zones.find(o.store, ref.accountId, ref.zoneId);
    const record = zone && (await o.store.dnsRecords.get<DnsRecordT>(ref.zoneId, ref.recordId));
    if (!record || !monitored(record)) return;
    // The probe runs outside any transaction: a slow target must not hold a database connection.
    const online = await probe(record.MonitorType === 2 ? 'http' : 'tcp', record.Value ?? '', record.Port > 0 ? record.Port : 80);
    await changeRecord(ref, async (tx, current) => {
      if (!monitored(current)) return undefined;
      await tx.jobs.enqueue(MONITOR_JOB, ref, at(o.monitorIntervalMs));
      return { ...current, MonitorStatus: online ? 1 : 2 };
    });
  });
}

/** A pull zone name from the record's full name, e.g. `www.example.com` → `www-example-com-12`. */
function acceleratedZoneName(record: DnsRecordT, zone: StoredDnsZone): string {
  const full = [record.Name, zone.Domain].filter(Boolean).join('.').toLowerCase();
  const base = full
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  return `${base || 'record'}-${record.Id}`;
}

async function accelerate(tx: StoreTx, pullZones: PullZoneService, ref: RecordRef, record: DnsRecordT, zone: StoredDnsZone): Promise<DnsRecordT> {
  const target = record.Value ?? '';
  const host = record.Type === 1 ? `[${target}]` : target.replace(/\.$/, '');
  try {
    const created = await pullZones.createIn(tx, ref.accountId, { Name: acceleratedZoneName(record, zone), OriginUrl: `http://${host}` });
    const stored = await pullZones.zones.get(tx, ref.accountId, created.Id);
    await pullZones.zones.update(tx, ref.accountId, stored, { ...stored.doc, DnsRecordId: record.Id, DnsZoneId: zone.Id, DnsRecordValue: target });
    return { ...record, AccelerationStatus: COMPLETED, AcceleratedPullZoneId: created.Id };
  } catch (error) {
    if ((error as { code?: string }).code !== 'validation') throw error;
    return { ...record, AccelerationStatus: FAILED };
  }
}
