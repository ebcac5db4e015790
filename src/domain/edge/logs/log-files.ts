/**
 * Logs kept in storage (`LoggingSaveToStorage`): the lines of each zone written into the storage
 * zone `LoggingStorageZoneId` every `flushMs`, in the zone's `LogFormat`, as files
 * `<pull zone id>/<MM>-<DD>-<YY>-<HHMMSSmmm>-<instance>.log` — a folder per zone, a file per day
 * and part (the part named by the flush's UTC time and the instance, so instances never write the
 * same file). Written through the files service like any upload: the storage zone's counters
 * count them and the file API and S3 read them. Each carries the metadata LOG_FILE_MARK (its pull
 * zone's id): when the pull zone is deleted, the files so marked in its folder of each of the
 * account's storage zones go with it (`removeIn`), and no other file.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FileRecord, Store, StoreTx } from '../../../store/types.js';
import type { DocumentRepo } from '../../documents.js';
import type { FileService } from '../../files/service.js';
import { zoneOf } from '../../files/zones-by-name.js';
import type { StoredStorageZone } from '../../storage-zones/service.js';
import type { EdgeZone } from '../types.js';
import type { LineSink } from '../usage/access-log.js';
import { inFormat, timestampOf } from './line.js';

/** Lines waiting for a flush beyond which new ones are dropped (counted). */
const MAX_PENDING = 200_000;
/** A zone with this many lines waiting is written at once, whatever the time. */
const PART_LINES = 50_000;
/** The metadata (S3 `x-amz-meta-…`) that marks a file as the log of the pull zone whose id it holds. */
export const LOG_FILE_MARK = 'edgeplane-pull-zone-log';
/** A file's name in its zone's folder: `<MM>-<DD>-<YY>-<HHMMSSmmm>-<instance>.log`. */
const LOG_FILE_NAME = /^\d{2}-\d{2}-\d{2}-\d{9}-[0-9a-f]{6}\.log$/;
/** Storage zones of an account looked through at most when a pull zone's logs are removed. */
const STORAGE_ZONES_LOOKED_AT = 10_000;

/** The pull zone was deleted while its lines were on their way: they go with it. */
class PullZoneGone extends Error {}

export interface LogFilesDeps {
  store: Store;
  files: FileService;
  storageZones: DocumentRepo<StoredStorageZone>;
}

interface Pending {
  /** The zone as its newest line saw it (its LogFormat and LoggingStorageZoneId decide the file). */
  zone: EdgeZone;
  accountId: number;
  lines: string[];
}

export class LogFiles implements LineSink {
  private pending = new Map<number, Pending>();
  private pendingLines = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Names this process's parts: two instances never write the same file. */
  private readonly instance = randomBytes(3).toString('hex');
  /** Lines dropped: the bound was reached, or the storage zone was gone. */
  dropped = 0;
  private logError: (error: unknown) => void = () => undefined;

  constructor(
    private readonly deps: LogFilesDeps,
    private readonly flushMs: number,
  ) {}

  start(logError: (error: unknown) => void): void {
    this.logError = logError;
    this.timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  add(zone: EdgeZone, accountId: number, plain: string): void {
    if (this.pendingLines >= MAX_PENDING) {
      this.dropped++;
      return;
    }
    const pending = this.pending.get(zone.Id);
    if (pending) {
      pending.zone = zone;
      pending.lines.push(plain);
      if (pending.lines.length === PART_LINES) void this.flush();
    } else this.pending.set(zone.Id, { zone, accountId, lines: [plain] });
    this.pendingLines++;
  }

  forget(pullZoneId: number): void {
    const pending = this.pending.get(pullZoneId);
    if (pending) this.pendingLines -= pending.lines.length;
    this.pending.delete(pullZoneId);
  }

  /** Writes every zone's lines gathered so far, one file per zone and day; a zone whose write failed keeps its lines for the next flush. */
  flush(): Promise<void> {
    const run = this.flushing.then(async () => {
      const batch = this.pending;
      this.pending = new Map();
      this.pendingLines = 0;
      for (const [pullZoneId, pending] of batch) {
        try {
          await this.write(pending);
        } catch (error) {
          this.logError(error);
          this.requeue(pullZoneId, pending);
        }
      }
    });
    this.flushing = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write({ zone, accountId, lines }: Pending): Promise<void> {
    const storageZone = zone.LoggingStorageZoneId > 0 ? await this.deps.storageZones.find(this.deps.store, accountId, zone.LoggingStorageZoneId) : undefined;
    if (!storageZone || storageZone.doc.Deleted) {
      this.dropped += lines.length;
      this.logError(new Error(`Pull zone ${zone.Id}: ${lines.length} log lines not kept, its storage zone ${zone.LoggingStorageZoneId} is gone.`));
      return;
    }
    const access = { ...zoneOf(storageZone.id, accountId, storageZone.doc), canWrite: true };
    const flushedAt = new Date();
    // Checked in each file's transaction: a pull zone deleted meanwhile (its files removed) gets no new one.
    const precondition = async (tx: StoreTx) => {
      if (!(await tx.docs.get('pullZone', accountId, String(zone.Id)))) throw new PullZoneGone();
    };
    try {
      for (const [day, ofDay] of byDay(lines)) {
        const body = `${ofDay.map((line) => inFormat(line, zone.LogFormat)).join('\n')}\n`;
        const path = `${zone.Id}/${day}-${timeOfDay(flushedAt)}-${this.instance}.log`;
        await this.deps.files.upload(access, { path, isDirectory: false }, Readable.from([Buffer.from(body)]), {
          contentType: 'text/plain; charset=utf-8',
          metadata: { [LOG_FILE_MARK]: String(zone.Id) },
          precondition,
        });
      }
    } catch (error) {
      if (!(error instanceof PullZoneGone)) throw error;
      this.dropped += lines.length;
    }
  }

  /**
   * Inside the transaction deleting a pull zone: the log files written for it go — in its folder
   * of each of the account's storage zones, those marked with its id (LOG_FILE_MARK) and named as
   * this writes them; the folder too when nothing else is left in it. Its lines still waiting here
   * are dropped.
   */
  async removeIn(tx: StoreTx, accountId: number, pullZoneId: number): Promise<void> {
    this.forget(pullZoneId);
    const folder = `${pullZoneId}/`;
    const storageZones = await this.deps.storageZones.list(tx, accountId, { offset: 0, limit: STORAGE_ZONES_LOOKED_AT, named: true });
    for (const storageZone of storageZones.items) {
      const zone = { zoneId: String(storageZone.Id), accountId };
      const entries = await tx.files.children(zone.zoneId, folder);
      const logs = entries.filter((entry) => isLogFileOf(entry, pullZoneId));
      if (logs.length === 0) continue;
      const removed = await this.deps.files.removeIn(
        tx,
        zone,
        logs.map((entry) => entry.path),
      );
      if (removed.length === entries.length) await this.deps.files.removeIn(tx, zone, [folder]);
    }
  }

  private requeue(pullZoneId: number, failed: Pending): void {
    const newer = this.pending.get(pullZoneId);
    const lines = newer ? [...failed.lines, ...newer.lines] : failed.lines;
    const room = MAX_PENDING - this.pendingLines + (newer?.lines.length ?? 0);
    const kept = lines.length > room ? lines.slice(lines.length - Math.max(0, room)) : lines;
    this.dropped += lines.length - kept.length;
    this.pendingLines += kept.length - (newer?.lines.length ?? 0);
    this.pending.set(pullZoneId, { zone: newer?.zone ?? failed.zone, accountId: failed.accountId, lines: kept });
  }
}

/** Whether a storage zone's entry is a log file written for the pull zone `pullZoneId`. */
function isLogFileOf(entry: FileRecord, pullZoneId: number): boolean {
  return !entry.isDirectory && entry.metadata?.[LOG_FILE_MARK] === String(pullZoneId) && LOG_FILE_NAME.test(entry.path.slice(entry.parent.length));
}

/** `MM-DD-YY` of a UTC day, as the logging API names days. */
export function dayName(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(at.getUTCMonth() + 1)}-${two(at.getUTCDate())}-${two(at.getUTCFullYear() % 100)}`;
}

/** `HHMMSSmmm` (UTC). */
const timeOfDay = (at: Date) => at.toISOString().slice(11, 23).replace(/[:.]/g, '');

/** The lines of each UTC day, in their order. */
function byDay(lines: string[]): Map<string, string[]> {
  const days = new Map<string, string[]>();
  for (const line of lines) {
    const day = dayName(new Date(timestampOf(line)));
    const ofDay = days.get(day);
    if (ofDay) ofDay.push(line);
    else days.set(day, [line]);
  }
  return days;
}
