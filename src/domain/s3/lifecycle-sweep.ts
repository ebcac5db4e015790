/**
 * Applies the S3 lifecycle configurations of storage zones, every 10 minutes (S3 runs them once a
 * day, so an object goes within minutes of when S3 would let it go at the earliest):
 * - Expiration: a file matching the rule's filter (prefix, every tag, size bounds) is deleted once
 *   its Date has passed, or at the first midnight UTC after its Last-Modified plus Days, as S3
 *   counts. Deletion goes through the file service, so the zone's counters and the dead blobs
 *   are handled as for any delete, and only the version found old is removed (a file uploaded
 *   again meanwhile stays).
 * - AbortIncompleteMultipartUpload: an upload of a matching key initiated DaysAfterInitiation days
 *   before (same midnight rounding) is aborted, its parts released.
 * Zones, files and uploads are read in bounded pages, never a whole zone at once. Several instances
 * may sweep at once: what one removed, the other finds gone.
 */
import { AppError } from '../errors.js';
import type { FileService } from '../files/service.js';
import type { Clock } from '../principal.js';
import type { Store } from '../../store/types.js';
import type { BucketSettingsService } from './bucket-settings.js';
import type { LifecycleRule } from './types.js';
import type { MultipartUploads } from './multipart.js';
import { tagsOf } from './object-tags.js';
import { DAY_MS } from '../durations.js';

const EVERY_MS = 10 * 60_000;
const ZONES_PAGE = 100;
const FILES_PAGE = 500;
const UPLOADS_PAGE = 500;

export interface SweepOutcome {
  expired: number;
  aborted: number;
}

interface Zone {
  zoneId: string;
  accountId: number;
}

/** When something dated `from` is `days` old as S3 counts: the first midnight UTC after `from` plus the days. */
export function dueAfterDays(from: string, days: number): number {
  const at = Date.parse(from) + days * DAY_MS;
  return Math.floor(at / DAY_MS) * DAY_MS + DAY_MS;
}

export class LifecycleSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepOutcome> | undefined;

  constructor(
    private readonly store: Store,
    private readonly buckets: BucketSettingsService,
    private readonly files: FileService,
    private readonly uploads: MultipartUploads,
    private readonly clock: Clock,
    private onError: (error: unknown) => void = () => {},
  ) {}

  /** Sweeps every 10 minutes from now on, telling `onError` of what failed (one zone's failure, or a whole pass's). */
  start(onError = this.onError): void {
    if (this.timer) return;
    this.onError = onError;
    this.timer = setInterval(() => void this.sweep().catch(onError), EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One pass over every zone with a lifecycle configuration; a pass already under way is joined. */
  sweep(): Promise<SweepOutcome> {
    this.running ??= this.sweepAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sweepAll(): Promise<SweepOutcome> {
    const outcome: SweepOutcome = { expired: 0, aborted: 0 };
    for (let offset = 0; ; offset += ZONES_PAGE) {
      const zones = await this.buckets.withLifecycle(offset, ZONES_PAGE);
      for (const zone of zones) {
        // One zone's failure (deleted meanwhile, a store hiccup) leaves the others to be swept.
        try {
          for (const rule of zone.rules) {
            if (!rule.enabled) continue;
            outcome.expired += await this.expire(zone, rule);
            outcome.aborted += await this.abortStale(zone, rule);
          }
        } catch (error) {
          this.onError(error);
        }
      }
      if (zones.length < ZONES_PAGE) return outcome;
    }
  }

  private async expire(zone: Zone, rule: LifecycleRule): Promise<number> {
    const expiration = rule.expiration;
    const now = this.clock().getTime();
    let isDue: (changedAt: string) => boolean;
    if (expiration?.days !== undefined) {
      const days = expiration.days;
      isDue = (changedAt) => dueAfterDays(changedAt, days) <= now;
    } else if (expiration?.date !== undefined) {
      if (Date.parse(expiration.date) > now) return 0;
      isDue = () => true;
    } else {
      return 0;
    }
    const { prefix, tags, sizeGreaterThan, sizeLessThan } = rule.filter;
    let removed = 0;
    for (let after: string | undefined; ; ) {
      const page = await this.store.files.range(zone.zoneId, { prefix, ...(after === undefined ? {} : { after }), limit: FILES_PAGE, filesOnly: true });
      for (const file of page) {
        if (!isDue(file.changedAt)) continue;
        if (sizeGreaterThan !== undefined && !(file.size > sizeGreaterThan)) continue;
        if (sizeLessThan !== undefined && !(file.size < sizeLessThan)) continue;
        if (tags.length > 0) {
          const has = tagsOf(file.metadata);
          if (!tags.every((wanted) => has.some((t) => t.key === wanted.key && t.value === wanted.value))) continue;
        }
        if (await gone(() => this.files.remove(zone, { path: file.path, isDirectory: false }, false, file.guid))) removed++;
      }
      if (page.length < FILES_PAGE) return removed;
      after = page.at(-1)!.path;
    }
  }

  private async abortStale(zone: Zone, rule: LifecycleRule): Promise<number> {
    const days = rule.abortIncompleteUploadDays;
    if (days === undefined) return 0;
    const now = this.clock().getTime();
    let aborted = 0;
    for (let after: { key: string; uploadId: string } | undefined; ; ) {
      const page = await this.uploads.list(zone, { prefix: rule.filter.prefix, ...(after === undefined ? {} : { after }), limit: UPLOADS_PAGE });
      for (const upload of page) {
        if (dueAfterDays(upload.createdAt, days) > now) continue;
        if (await gone(() => this.uploads.abort(zone, upload))) aborted++;
      }
      if (page.length < UPLOADS_PAGE) return aborted;
      const last = page.at(-1)!;
      after = { key: last.key, uploadId: last.uploadId };
    }
  }
}

/** Runs a removal; false when what it removes was already gone (or changed), which is no failure here. */
async function gone(remove: () => Promise<void>): Promise<boolean> {
  try {
    await remove();
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return false;
    throw error;
  }
}
