/**
 * Removes from the files backend the blobs no file points at:
 * - dead blobs, recorded in the transaction that replaced or deleted their file (or their whole
 *   zone, as a key prefix), once their grace period is over, every 30 seconds;
 * - orphans, blobs whose upload never committed (the process died between writing the bytes and
 *   committing the metadata), found by listing the backend every hour: a blob older than an hour
 *   whose key names no file (`<zone>/<guid>[.<part>]`) and no upload still in progress is one.
 * Several instances may sweep at once: deleting a blob twice is harmless.
 */
import type { BlobStore } from '../../files/types.js';
import type { Store } from '../../store/types.js';
import type { Clock } from '../principal.js';

const DEAD_EVERY_MS = 30_000;
const ORPHANS_EVERY_MS = 3_600_000;
const ORPHAN_AGE_MS = 3_600_000;
const BATCH = 500;

/** Says whether something besides a committed file still needs a blob (an S3 multipart upload in progress). */
export type BlobClaim = (zoneId: string, guid: string) => Promise<boolean>;

export class FileSweeper {
  private timers: NodeJS.Timeout[] = [];
  private readonly claims: BlobClaim[] = [];

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.claims.push((zoneId, guid) => store.files.guidExists(zoneId, guid));
  }

  claim(claim: BlobClaim): void {
    this.claims.push(claim);
  }

  start(onError = this.onError): void {
    const every = (ms: number, work: () => Promise<unknown>) => {
      const timer = setInterval(() => void work().catch(onError), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(DEAD_EVERY_MS, () => this.sweepDead());
    every(ORPHANS_EVERY_MS, () => this.sweepOrphans());
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** Deletes the dead blobs whose grace is over; answers how many keys (or prefixes) were handled. */
  async sweepDead(): Promise<number> {
    let handled = 0;
    for (;;) {
      const due = await this.store.deadBlobs.due(this.clock().getTime(), BATCH);
      if (due.length === 0) return handled;
      for (const key of due) {
        if (key.endsWith('/')) {
          for await (const blob of this.blobs.list(key)) await this.blobs.delete(blob.key);
        } else {
          await this.blobs.delete(key);
        }
      }
      await this.store.deadBlobs.forget(due);
      handled += due.length;
    }
  }

  /** Deletes blobs last written over an hour ago that nothing claims (a write cut short included); answers how many. */
  async sweepOrphans(): Promise<number> {
    const before = this.clock().getTime() - ORPHAN_AGE_MS;
    let deleted = 0;
    for await (const blob of this.blobs.list('')) {
      if (blob.modified.getTime() > before) continue;
      const parsed = /^([^/]+)\/([^/.]+)(?:\.\d+)?$/.exec(blob.key);
      if (parsed && (await this.claimed(parsed[1]!, parsed[2]!))) continue;
      await this.blobs.delete(blob.key);
      deleted++;
    }
    return deleted;
  }

  private async claimed(zoneId: string, guid: string): Promise<boolean> {
    for (const claim of this.claims) if (await claim(zoneId, guid)) return true;
    return false;
  }
}
